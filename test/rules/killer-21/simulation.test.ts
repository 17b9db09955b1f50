/**
 * `zaptable simulate --game killer-21` (the shared simulate command, which replaced phase A's own driver) with
 * tiny numbers: its structure and its determinism. Throughput figures come from running the command, never
 * from tests.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../controller/cli/commands/simulate.ts';

const simulateKiller21 = (games: number, seed: string, players: number, variant?: string) =>
  simulate('killer-21', games, seed, players, variant);

describe('simulate --game killer-21', () => {
  it('plays complete games and reports the same fingerprint for the same seed', () => {
    const a = simulateKiller21(30, 't', 5);
    const b = simulateKiller21(30, 't', 5);
    expect(a.games).toBe(30);
    expect(a.actions).toBeGreaterThan(30 * 10);
    expect(a.meanActionsPerGame).toBeGreaterThan(10);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.actions).toBe(b.actions);
    const shares = Object.values(a.winShareBySeat).reduce((x, y) => x + y, 0);
    expect(shares).toBeCloseTo(1, 2);
    expect(Object.keys(a.winShareBySeat)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(simulateKiller21(30, 'u', 5).fingerprint).not.toBe(a.fingerprint);
  });

  it('plays the Blitz variant and two to seven players', () => {
    for (const players of [2, 7]) expect(simulateKiller21(5, 'x', players, 'blitz').games).toBe(5);
  });
});
