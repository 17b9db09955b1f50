/**
 * The registry of the games' table halves (table-plugin.ts), one line per game, beside the rules registry
 * (rules/games.ts). Adding a game: docs/adding-a-game.md.
 */
import type { GameId } from '../../rules/engine.ts';
import { killer21TablePlugin } from '../killer-21/plugin.ts';
import { zappZerappTablePlugin } from '../zapp-zerapp/plugin.ts';
import { zipZapTablePlugin } from '../zip-zap/plugin.ts';
import type { TablePlugin } from './table-plugin.ts';

const TABLES: readonly TablePlugin[] = [zipZapTablePlugin, zappZerappTablePlugin, killer21TablePlugin];

const BY_ID: ReadonlyMap<string, TablePlugin> = new Map(TABLES.map((t) => [t.id, t]));

/** The table half of a registered game; throws for a game without one (every game in rules/games.ts has one). */
export function getTablePlugin(id: GameId): TablePlugin {
  const plugin = BY_ID.get(id);
  if (plugin === undefined) throw new Error(`game "${id}" has no table plug-in (runtime/games/tables.ts)`);
  return plugin;
}

/** The table half, or undefined for a mode that is not a game. */
export function findTablePlugin(id: unknown): TablePlugin | undefined {
  return typeof id === 'string' ? BY_ID.get(id) : undefined;
}

/** Every table half, for the test that checks both registries list the same games. */
export function tablePluginIds(): readonly GameId[] {
  return TABLES.map((t) => t.id);
}
