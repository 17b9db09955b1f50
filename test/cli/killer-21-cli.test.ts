/**
 * The `zaptable` tools know Killer-21 through the game registry: `simulate --game killer-21` (figures per wall
 * and CPU second, deterministic), `scenario` on its rule scenarios, `demo`, and refusals that list the games.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../controller/cli/main.ts';
import { memoryOutput } from '../../controller/cli/output.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

async function run(...argv: string[]) {
  const io = memoryOutput();
  const code = await main(argv, io);
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n') };
}

describe('zaptable and Killer-21', () => {
  it('simulates Killer-21: same seed, same games; wall and CPU figures; its own variants and seat limits', async () => {
    const figures = async (seed: string) => {
      const r = await run('simulate', '--game', 'killer-21', '--games', '20', '--seed', seed, '--players', '7', '--variant', 'blitz', '--json');
      expect(r.code).toBe(0);
      type Figures = { fingerprint: string; actions: number; actionsPerCpuSecond: number; variant: string };
      return JSON.parse(r.out) as Figures;
    };
    const a = await figures('7');
    expect(a.variant).toBe('blitz');
    expect(a.actionsPerCpuSecond).toBeGreaterThan(0);
    expect((await figures('7')).fingerprint).toBe(a.fingerprint);
    expect((await figures('8')).fingerprint).not.toBe(a.fingerprint);
    const text = await run('simulate', '--game', 'killer-21', '--games', '3');
    expect(text.out).toMatch(/actions\/s\s+[\d,]+ wall, [\d,]+ CPU/);
    expect((await run('simulate', '--game', 'killer-21', '--players', '8')).code).toBe(2);
    const badVariant = await run('simulate', '--game', 'killer-21', '--variant', 'pro');
    expect(badVariant.code).toBe(2);
    expect(badVariant.err).toContain('--variant for killer-21 must be standard, blitz or table-deal');
    expect((await run('simulate', '--game', 'chess')).err).toContain('killer-21');
  });

  it('runs the Killer-21 rule scenarios, and fails the deliberately wrong ones', async () => {
    const dir = path.join(root, 'test/scenarios/killer-21');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f));
    const r = await run('scenario', '--quiet', ...files);
    expect(r.code).toBe(0);
    const passed = /^(\d+) passed, 0 failed$/m.exec(r.out);
    expect(Number(passed?.[1])).toBeGreaterThanOrEqual(files.length);
    const wrong = await run('scenario', path.join(dir, 'wrong'));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/^0 passed, \d+ failed$/m);
  });

  it('plays a Killer-21 game in the demo', async () => {
    const r = await run('demo', '--seed', '3');
    expect(r.code).toBe(0);
    expect(r.out).toContain('── killer-21');
  });
});
