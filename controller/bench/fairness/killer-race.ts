/**
 * Killer-21's red-0 race on the fairness rig (docs/rules/killer-21.md K21-30..37): the player on turn lays the
 * Killer on their seat pad, the other player a red 0 on theirs, both as cards the stations read, through the
 * real serial driver into the Killer-21 runtime and engine. Two races:
 *
 * - `killer`: the zero a known time before or after the Killer's landing. After it, the zero answers the
 *   Killer (`ZERO_IN_TIME`); wholly before it, it is no answer (refused as a play out of turn or, if its line
 *   came after the Killer's, `ZERO_BEFORE_KILLER`); an interval overlapping the Killer's is a tie (`ZERO_TIED`).
 * - `deadline`: the zero a known time before or after the deadline (the Killer's true landing plus the
 *   window): in time (`ZERO_IN_TIME`), late (`ZERO_LATE`) or a tie (`ZERO_TIED`, boundary DEADLINE).
 *
 * The decision is read from what the runtime published while the race ran (`watchOutcomes`): never from the
 * order the lines arrived in.
 */
import { getEngine } from '../../rules/games.ts';
import type { Killer21State } from '../../rules/killer-21/index.ts';
import type { InputOutcome } from '../../runtime/table-runtime.ts';

/**
 * The Killer window of the rig's Killer-21 table, ms. Shorter than the game's default 3000 to save simulated
 * time: the deadline is the Killer's landing interval shifted by it, so its length changes no comparison.
 */
export const KILLER_WINDOW_MS = 1000;

/** A deal where the player on turn may play the Killer and the other one holds a red 0. */
export interface KillerSeed {
  readonly seed: number;
  /** Who plays the Killer (on turn), who lays the zero. */
  readonly by: 'a' | 'b';
  readonly killer: string;
  readonly zero: string;
}

/** Deals where the Killer race can be run (searched once; deterministic). */
export function findKillerSeeds(count: number): KillerSeed[] {
  const engine = getEngine('killer-21');
  const found: KillerSeed[] = [];
  for (let seed = 1; seed < 200_000 && found.length < count; seed++) {
    const setup = engine.setup({ players: ['a', 'b'], killerWindowMs: KILLER_WINDOW_MS } as Parameters<typeof engine.setup>[0], seed);
    if (!setup.ok) continue;
    const state = setup.state as Killer21State;
    const by = state.turn;
    if (state.phase !== 'TURN' || (by !== 'a' && by !== 'b')) continue;
    const actions = engine.legalActions(state) as { type: string; player?: string; card?: string }[];
    const killer = actions.find((x) => x.type === 'play' && x.player === by && x.card?.startsWith('KILLER') === true)?.card;
    const zero = (state.hands[by === 'a' ? 'b' : 'a'] ?? []).find((c) => c.startsWith('R0-'));
    if (killer !== undefined && zero !== undefined) found.push({ seed, by, killer, zero });
  }
  if (found.length < count) throw new Error(`bench fairness: only ${found.length} Killer-21 deals found`);
  return found;
}

/**
 * What the table decided about the zero, as the race's order: for `killer`, 0 when it took the zero as an answer
 * (the Killer first), 1 when it did not (the zero first); for `deadline`, 1 in time (the zero first), 0 late (the
 * deadline first); `tie` for a referee; undefined when the Killer's window never opened (unanswered).
 */
export function killerDecision(
  path: 'killer' | 'deadline', outcomes: readonly InputOutcome[], zeroBy: string,
): 0 | 1 | 'tie' | undefined {
  const events = outcomes.flatMap((o) => o.events.map((e) => e.event as { type?: string; player?: string }));
  if (!events.some((e) => e.type === 'KILLER_WINDOW_OPENED')) return undefined;
  const zero = events.find((e) => e.player === zeroBy && (e.type === 'ZERO_IN_TIME' || e.type === 'ZERO_LATE' || e.type === 'ZERO_TIED'));
  if (zero?.type === 'ZERO_TIED') return 'tie';
  if (path === 'killer') return zero?.type === 'ZERO_IN_TIME' ? 0 : 1;
  if (zero === undefined) return undefined; // the zero was never judged against the deadline
  return zero.type === 'ZERO_IN_TIME' ? 1 : 0;
}
