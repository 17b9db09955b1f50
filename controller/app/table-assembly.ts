/**
 * Builds one table's runtime from its configuration: seats → stations, the game's table adapter (its table
 * plug-in's `table` factory, runtime/games/tables.ts) with the tag registry, barrel weights and the game's table options, and the engine options
 * (the plug-in adds what comes from the seats: Zapp Zerapp's colours).
 */
import { randomInt } from 'node:crypto';
import type { TableConfig } from '../config/index.ts';
import { getGame, isGameId } from '../rules/games.ts';
import type { GameId } from '../rules/engine.ts';
import type { BarrelWeights } from '../runtime/calibration/barrel-weights.ts';
import type { TableGame } from '../runtime/games/table-game.ts';
import { getTablePlugin } from '../runtime/games/tables.ts';
import type { TagRegistry } from '../runtime/registry/tag-registry.ts';
import { TableRuntime, type TableRuntimeDeps } from '../runtime/table-runtime.ts';

export interface TableParts {
  readonly registry: TagRegistry;
  readonly weights?: BarrelWeights;
}

export function gameOf(table: TableConfig): GameId {
  if (!isGameId(table.mode)) throw new Error(`table ${table.id}: ${String(table.mode)} mode is not a game`);
  return table.mode;
}

/** Engine options: the table's `rules` plus what the seats give (the plug-in says what: Zapp Zerapp's colours). */
export function engineRules(table: TableConfig): Record<string, unknown> {
  const seats = table.seats.map((s) => ({ id: s.id, ...(s.colour === undefined ? {} : { colour: s.colour }) }));
  return getGame(gameOf(table)).engineRules({ ...table.rules }, seats);
}

/** The table options a game's adapter may read (its plug-in's `tableKeys`), as configured. */
function tableOptions(table: TableConfig): Record<string, unknown> {
  const keys = getGame(gameOf(table)).tableKeys;
  return Object.fromEntries(Object.entries(table).filter(([k]) => keys.includes(k)));
}

export function tableGameOf(table: TableConfig, parts: TableParts): TableGame {
  return getTablePlugin(gameOf(table)).table({
    seatOfStation: Object.fromEntries(table.seats.map((s) => [s.station, s.id])),
    registry: parts.registry,
    options: tableOptions(table),
    ...(parts.weights === undefined ? {} : { weights: parts.weights }),
    ...(table.pileStation === undefined ? {} : { pileStation: table.pileStation }),
  });
}

/** Fresh seeds for `seed: auto` (logged with the game, so it can still be replayed). */
/**
 * Where a table's games get their seeds. `auto`: a fresh random seed each game (logged, so it still replays).
 * A configured seed: the first game of a run takes it as written, each later game of the same run the next
 * derived seed (`"<seed>/2"`, `"<seed>/3"`, …), so a replayable table never deals the same hands twice in a row.
 */
export function seedSource(table: TableConfig): () => number | string {
  if (table.seed === 'auto') return () => randomInt(1, 2 ** 31 - 1);
  const seed = table.seed;
  let games = 0;
  return () => {
    games += 1;
    return games === 1 ? seed : `${seed}/${games}`;
  };
}

/** Builds a table's runtime; `nextSeed` is handed in when the seed sequence must outlive this runtime (TableHost). */
export function buildTableRuntime(
  table: TableConfig, parts: TableParts, deps: TableRuntimeDeps, nextSeed: () => number | string = seedSource(table),
): TableRuntime {
  return new TableRuntime({
    tableId: table.id,
    game: gameOf(table),
    players: table.seats.map((s) => s.id),
    seatOfStation: Object.fromEntries(table.seats.map((s) => [s.station, s.id])),
    rules: engineRules(table),
    nextSeed,
    arbitrationWindowMs: table.timing.arbitrationWindowMs,
    tableGame: tableGameOf(table, parts),
  }, deps);
}

/** Every station a table uses (seats and the pile). */
export function stationsOf(table: TableConfig): string[] {
  return [...table.seats.map((s) => s.station), ...(table.pileStation === undefined ? [] : [table.pileStation])];
}
