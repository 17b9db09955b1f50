/**
 * The `zaptable` command line, run in-process (and once through the real bin) with its output captured.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { main } from '../../controller/cli/main.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { PUBLIC } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'zaptable-cli-'));

async function run(...argv: string[]) {
  const io = memoryOutput();
  const code = await main(argv, io);
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n') };
}

describe('help', () => {
  it('explains every subcommand with no arguments and with --help', async () => {
    for (const argv of [[], ['--help']]) {
      const r = await run(...argv);
      expect(r.code).toBe(0);
      for (const name of ['start', 'dashboard', 'enroll', 'calibrate', 'config', 'history', 'demo', 'simulate', 'replay', 'scenario', 'bench']) expect(r.out).toContain(`  ${name}`);
    }
    const sub = await run('help', 'simulate');
    expect(sub.out).toContain('--games N');
  });

  it('answers an unknown command or option with usage and exit code 2', async () => {
    const unknown = await run('fly');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "fly"');
    const badOption = await run('simulate', '--game', 'zip-zap', '--colour', 'red');
    expect(badOption.code).toBe(2);
    expect(badOption.err).toContain('Unknown option \'--colour\'');
    const badGame = await run('simulate', '--game', 'chess');
    expect(badGame.code).toBe(2);
    expect(badGame.err).toContain('--game must be zip-zap or zapp-zerapp');
  });

  it('works through the installed bin', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'bin', 'zaptable.mjs'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: zaptable COMMAND');
  });
});

describe('simulate', () => {
  it('plays the same games for the same seed, other games for another seed', async () => {
    const figures = async (seed: string, game: string) => {
      const r = await run('simulate', '--game', game, '--games', '20', '--seed', seed, '--players', '3', '--json');
      expect(r.code).toBe(0);
      return JSON.parse(r.out) as { fingerprint: string; games: number; actions: number; actionsPerSecond: number };
    };
    for (const game of ['zip-zap', 'zapp-zerapp']) {
      const a = await figures('7', game);
      const b = await figures('7', game);
      const c = await figures('8', game);
      expect(a.games).toBe(20);
      expect(a.actions).toBeGreaterThan(20);
      expect(a.actionsPerSecond).toBeGreaterThan(0);
      expect(b.fingerprint).toBe(a.fingerprint);
      expect(b.actions).toBe(a.actions);
      expect(c.fingerprint).not.toBe(a.fingerprint);
    }
  });

  it('prints a readable report with throughput and outcome statistics', async () => {
    const r = await run('simulate', '--game', 'zapp-zerapp', '--games', '5', '--variant', 'pro');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/actions\/s\s+[\d,]+/);
    expect(r.out).toContain('zapp-zerapp (pro), 4 players, 5 games');
  });
});

describe('scenario', () => {
  it('passes the rule scenarios', async () => {
    const r = await run('scenario', '--quiet', path.join(root, 'test/scenarios/zip-zap'), path.join(root, 'test/scenarios/zapp-zerapp'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\d+ passed, 0 failed$/m);
  });

  it('fails every deliberately wrong scenario, with the reason, and exits 1', async () => {
    const r = await run('scenario', path.join(root, 'test/scenarios/wrong'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^0 passed, 3 failed$/m);
    expect(r.out).toContain('state.pieces.RED1 is 12, expected "START"');
    expect(r.out).toContain('expected rejection DOES_NOT_FOLLOW, but the action was applied');
  });

  it('reports a malformed scenario file without crashing', async () => {
    const file = path.join(tmp, 'broken.json');
    writeFileSync(file, '{"id": "X", "game": "zip-zap"');
    const r = await run('scenario', file);
    expect(r.code).toBe(1);
    expect(r.out).toContain('cannot read');
  });
});

describe('replay', () => {
  const engine = getEngine('zip-zap');
  const config = { players: ['A', 'B', 'C'] };
  const played = playGame(engine, config, 99);

  it('reproduces a game from its action log and prints the public view', async () => {
    const file = path.join(tmp, 'game.json');
    writeFileSync(file, JSON.stringify({ game: 'zip-zap', config, seed: 99, actions: played.actions }));
    const r = await run('replay', file, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(engine.view(played.finalState, PUBLIC));
    const text = await run('replay', file);
    expect(text.out).toContain(`${played.actions.length} actions applied`);
  });

  it('stops at a rejected action with its index and code', async () => {
    const file = path.join(tmp, 'bad-game.json');
    const actions = [...played.actions.slice(0, 3), { type: 'play', player: 'A', card: 'NOPE' }];
    writeFileSync(file, JSON.stringify({ game: 'zip-zap', config, seed: 99, actions }));
    const r = await run('replay', file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/action 3 rejected: [A-Z_]+/);
  });

  it('reports every problem of a malformed log', async () => {
    const file = path.join(tmp, 'not-a-log.json');
    writeFileSync(file, JSON.stringify({ game: 'go', actions: 3 }));
    const r = await run('replay', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain('game: must be');
    expect(r.err).toContain('config: required');
    expect(r.err).toContain('seed: required');
    expect(r.err).toContain('actions: required');
  });
});

describe('demo', () => {
  it('plays one game of each game and names the winners', async () => {
    const r = await run('demo', '--seed', '3');
    expect(r.code).toBe(0);
    expect(r.out).toContain('── zip-zap');
    expect(r.out).toContain('── zapp-zerapp');
    expect(r.out).toMatch(/^winners?( \(shared\))?: \S+/m);
  });
});
