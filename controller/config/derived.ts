/**
 * Defaults that depend on other values, so they cannot be a `default:` in the schema: names default to ids,
 * simulated stations are named after their seat's position, Zapp Zerapp colours follow the seat order, and
 * bots play the simulated seats. Runs after ajv has filled the plain defaults; tolerant of invalid data (a
 * value of the wrong shape is left for the schema's error).
 */
import { isRecord, list, rec, text } from './loose.ts';
import { hostname } from 'node:os';
import { findGame } from '../rules/games.ts';
import { controllerIdOf } from './controller-id.ts';

/** `seat-2` on the first table, `t3-seat-2` on the third: unique across tables, within the protocol's 16 characters. */
export function simulatedStationId(tableIndex: number, name: string): string {
  return tableIndex === 0 ? name : `t${tableIndex + 1}-${name}`;
}

/** The game's own seat colours (Zapp Zerapp's homes), in seat order, skipping those already taken. */
function fillGameColours(seats: unknown[], colours: readonly string[]): void {
  const taken = new Set(seats.map((s) => text(rec(s).colour)));
  const free = colours.filter((c) => !taken.has(c));
  for (const seat of seats) {
    if (isRecord(seat) && seat.colour === undefined) {
      const colour = free.shift();
      if (colour !== undefined) seat.colour = colour;
    }
  }
}

/** Fills the derived defaults in place. */
export function fillDerivedDefaults(config: unknown): void {
  const controller = rec(config).controller;
  if (isRecord(controller) && controller.id === undefined) controller.id = controllerIdOf(hostname());
  const hardware = rec(rec(config).hardware);
  const simulated = hardware.kind === 'simulated';
  const sim = rec(hardware.simulated);
  list(rec(config).tables).forEach((table, t) => {
    if (!isRecord(table)) return;
    if (table.name === undefined && typeof table.id === 'string') table.name = table.id;
    const seats = list(table.seats);
    seats.forEach((seat, s) => {
      if (!isRecord(seat)) return;
      if (seat.name === undefined && typeof seat.id === 'string') seat.name = seat.id;
      if (seat.station === undefined && simulated) seat.station = simulatedStationId(t, `seat-${s + 1}`);
      if (simulated) seat.bot = typeof seat.bot === 'boolean' ? seat.bot : sim.bots !== false;
      else seat.bot = false;
    });
    const game = findGame(table.mode);
    if (game?.seatColours !== undefined) fillGameColours(seats, game.seatColours);
    if (game?.tableKeys.includes('pileStation') && simulated && sim.pileStation !== false && table.pileStation === undefined) {
      table.pileStation = simulatedStationId(t, 'pile-1');
    }
  });
}
