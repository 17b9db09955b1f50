/**
 * Turn order (K21-6, K21-14, K21-70): seats are clockwise in `players` order, and players who are out are
 * skipped everywhere — turns, draws, Killer answers and dealing.
 */
import type { Direction, Killer21State } from './state.ts';

/**
 * The `steps`-th player with lives after `from` (who need not have lives), walking in `direction`.
 * At least one player must have lives.
 */
export function nextActive(
  state: Pick<Killer21State, 'players' | 'lives'>, from: string, steps: number, direction: Direction,
): string {
  const n = state.players.length;
  let i = state.players.indexOf(from);
  let found = 0;
  for (let guard = 0; guard < n * (steps + 1); guard++) {
    i = (i + direction + n) % n;
    const p = state.players[i] as string;
    if ((state.lives[p] ?? 0) > 0 && ++found === steps) return p;
  }
  // Unreachable while somebody has lives (callers check for the end of the game first).
  return from;
}

/** The other players with lives, starting after `from` and going round in `direction` (Draw order, K21-20). */
export function othersInOrder(state: Pick<Killer21State, 'players' | 'lives'>, from: string, direction: Direction): string[] {
  const n = state.players.length;
  const start = state.players.indexOf(from);
  const out: string[] = [];
  for (let k = 1; k < n; k++) {
    const p = state.players[(((start + direction * k) % n) + n) % n] as string;
    if ((state.lives[p] ?? 0) > 0) out.push(p);
  }
  return out;
}
