/**
 * The plug-in boundary (docs/adding-a-game.md): every game is registered in both registries (its rules half in
 * rules/games.ts, its table half in runtime/games/tables.ts) under one id, and no file outside a game's own
 * folders decides anything by comparing with a game id: the registries are the only way to a game.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_IDS, GAMES, getGame, isGameId } from '../../controller/rules/games.ts';
import { tablePluginIds } from '../../controller/runtime/games/tables.ts';

const controller = path.resolve(import.meta.dirname, '../../controller');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(controller, path.join(e.parentPath, e.name)));
}

/**
 * Files that name a game on purpose, not to branch on it: the default configuration (one Zapp Zerapp table),
 * and benchmarks that assemble a fixed game's pipeline.
 */
const NAMES_A_GAME = new Set([
  'config/defaults.ts', 'bench/pipeline.ts', 'persistence/bench.ts', 'cli/commands/bench-dashboard-world.ts',
  'bench/log-repair.ts', 'bench/soak-bench.ts', 'bench/fairness/goals.ts', 'bench/fairness/races.ts', 'bench/fairness/table-rig.ts', 'bench/fairness/world.ts',
  'bench/fairness/killer-race.ts', 'bench/venue/zaptable-processes.ts',
]);

describe('game registry', () => {
  it('lists every game in both halves, with matching ids and engines', () => {
    expect(GAME_IDS).toEqual(['zip-zap', 'zapp-zerapp', 'killer-21']);
    expect([...tablePluginIds()].sort()).toEqual([...GAME_IDS].sort());
    for (const game of GAMES) {
      expect(game.engine.id).toBe(game.id);
      expect(getGame(game.id)).toBe(game);
      expect(game.seats[0]).toBeGreaterThanOrEqual(1);
      expect(game.simulation.variants[game.simulation.defaultVariant]).toBeDefined();
      expect(game.simulation.playerIds.length).toBeGreaterThanOrEqual(game.seats[1]);
      expect(game.engine.setup(game.demo.config, 1).ok).toBe(true);
    }
    expect(isGameId('chess')).toBe(false);
    expect(() => getGame('chess')).toThrow(/unknown game "chess"/);
  });

  it('has no game-id literal outside the games\' own folders and the registries', () => {
    const ids = GAME_IDS.map((id) => `'${id}'`);
    const own = GAME_IDS.flatMap((id) => [`rules/${id}/`, `runtime/${id}/`]);
    const offenders = tsFiles(controller).filter((file) => {
      if (own.some((prefix) => file.startsWith(prefix)) || NAMES_A_GAME.has(file)) return false;
      const text = readFileSync(path.join(controller, file), 'utf8');
      return ids.some((id) => text.includes(id));
    });
    expect(offenders).toEqual([]);
  });
});
