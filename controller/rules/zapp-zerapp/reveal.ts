/**
 * The reveal (ZAPP-27, ZAPP-28, ZAPP-30): every barrel turned over at once; success when ≤ the magic number;
 * failures go back at once; the successful players move in descending barrel order.
 */
import { applied } from '../common/outcome.ts';
import type { RevealAction } from './actions.ts';
import type { ZappEvent } from './events.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { endRound, placedBarrel } from './round.ts';
import type { BarrelLoc, RevealEntry, ZappState } from './state.ts';

const MOUNTAIN: BarrelLoc = { at: 'MOUNTAIN' };

/** ZAPP-28: success iff the barrel is at most the magic number (13 never, 1 always). */
export function isSuccess(barrel: number | null, magic: number): boolean {
  return barrel !== null && barrel <= magic;
}

/** ZAPP-Q-12: whether the select timeout has run out at `at`. */
function timedOut(state: ZappState, at: number | undefined): boolean {
  const limit = state.config.selectTimeoutMs;
  return limit !== null && state.selectStartedAt !== null && at !== undefined && at - state.selectStartedAt >= limit;
}

/** `reveal`: refused until every player has placed (ZAPP-27), unless the select timeout ran out. */
export function applyReveal(state: ZappState, action: RevealAction): ZappOutcome {
  if (state.phase !== 'SELECT' || state.magic === null) return fail('WRONG_PHASE', `reveal follows the barrel choice (phase SELECT; now ${state.phase})`);
  const magic = state.magic;
  const results: RevealEntry[] = state.players.map((p) => {
    const barrel = placedBarrel(state, p.id);
    return { player: p.id, barrel, success: isSuccess(barrel, magic) };
  });
  const missing = results.filter((r) => r.barrel === null).map((r) => r.player);
  if (missing.length > 0 && !timedOut(state, action.at)) {
    return fail('NOT_ALL_PLACED', `still waiting for ${missing.join(', ')} to place a barrel (ZAPP-27)`);
  }
  // Barrel numbers are unique, so the order has no ties (ZAPP-30).
  const moveOrder = results.filter((r) => r.success).sort((a, b) => (b.barrel ?? 0) - (a.barrel ?? 0)).map((r) => r.player);
  const events: ZappEvent[] = [{ type: 'BARRELS_REVEALED', magic, results, moveOrder }];
  const barrels: Record<string, BarrelLoc> = { ...state.barrels };
  for (let v = 1; v <= 13; v++) {
    const loc = barrels[v];
    // Failures go back at once (ZAPP-28); barrels still in someone's hands too (ZAPP-26).
    if (loc?.at === 'PLACED' && !isSuccess(v, magic)) {
      barrels[v] = MOUNTAIN;
      events.push({ type: 'BARREL_RETURNED', player: loc.player, barrel: v, reason: 'FAILED' });
    } else if (loc?.at === 'HELD') barrels[v] = MOUNTAIN;
  }
  const next: ZappState = { ...state, barrels, reveal: { magic, results, moveOrder }, moveQueue: moveOrder };
  const first = moveOrder[0];
  // ZAPP-28: nobody succeeded, so the round ends.
  if (first === undefined) return applied(endRound(next, 'NOBODY_SUCCEEDED', events), events);
  events.push({ type: 'MOVER_CALLED', player: first, steps: placedBarrel(state, first) ?? 0 });
  return applied({ ...next, phase: 'MOVE' }, events);
}
