/**
 * Builds one table's runtime from its configuration: seats → stations, the game's table behaviour with the tag
 * registry and barrel weights, the engine options (players and Zapp Zerapp colours come from the seats).
 */
import { randomInt } from 'node:crypto';
import type { TableConfig } from '../config/index.ts';
import type { GameId } from '../rules/engine.ts';
import type { BarrelWeights } from '../runtime/calibration/barrel-weights.ts';
import type { TableGame } from '../runtime/games/table-game.ts';
import { zappTable } from '../runtime/games/zapp-zerapp-table.ts';
import { zipTable } from '../runtime/games/zip-zap-table.ts';
import type { TagRegistry } from '../runtime/registry/tag-registry.ts';
import { TableRuntime, type TableRuntimeDeps } from '../runtime/table-runtime.ts';

/** A settled weight below this is an empty pad, with no calibration to go by (g). */
const MIN_BARREL_GRAMS = 10;

export interface TableParts {
  readonly registry: TagRegistry;
  readonly weights?: BarrelWeights;
}

export function gameOf(table: TableConfig): GameId {
  if (table.mode === 'buzzer') throw new Error(`table ${table.id}: buzzer mode is not available in this version`);
  return table.mode;
}

/** Engine options: the table's `rules` plus the seats (and their colours for Zapp Zerapp). */
export function engineRules(table: TableConfig): Record<string, unknown> {
  if (table.mode !== 'zapp-zerapp') return { ...table.rules };
  const colours = Object.fromEntries(table.seats.map((s) => [s.id, (s.colour ?? '').toUpperCase()]));
  return { ...table.rules, colours };
}

export function tableGameOf(table: TableConfig, parts: TableParts): TableGame {
  const seatOfStation = Object.fromEntries(table.seats.map((s) => [s.station, s.id]));
  if (gameOf(table) === 'zapp-zerapp') {
    return zappTable({
      seatOfStation, registry: parts.registry, minBarrelGrams: MIN_BARREL_GRAMS,
      ...(parts.weights === undefined ? {} : { weights: parts.weights }),
    });
  }
  const pile = table.pileStation === undefined ? {} : { pileStation: table.pileStation };
  return zipTable({ seatOfStation, registry: parts.registry, ...pile });
}

/** Fresh seeds for `seed: auto` (logged with the game, so it can still be replayed). */
function seedSource(table: TableConfig): () => number | string {
  if (table.seed !== 'auto') return () => table.seed;
  return () => randomInt(1, 2 ** 31 - 1);
}

export function buildTableRuntime(table: TableConfig, parts: TableParts, deps: TableRuntimeDeps): TableRuntime {
  return new TableRuntime({
    tableId: table.id,
    game: gameOf(table),
    players: table.seats.map((s) => s.id),
    seatOfStation: Object.fromEntries(table.seats.map((s) => [s.station, s.id])),
    rules: engineRules(table),
    nextSeed: seedSource(table),
    arbitrationWindowMs: table.timing.arbitrationWindowMs,
    tableGame: tableGameOf(table, parts),
  }, deps);
}

/** Every station a table uses (seats and the pile). */
export function stationsOf(table: TableConfig): string[] {
  return [...table.seats.map((s) => s.station), ...(table.pileStation === undefined ? [] : [table.pileStation])];
}
