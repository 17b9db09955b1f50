/**
 * Phase 2, choosing barrels (ZAPP-20..26). Hands are not sensed on a real table, so `pick-up`/`put-back` are
 * optional; `place` (the pad reads the tag) is what commits. Barrel numbers never appear in events here:
 * they stay secret until the reveal (ZAPP-21, design principle 2).
 */
import { applied } from '../common/outcome.ts';
import type { PickUpAction, PlaceAction, PutBackAction } from './actions.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { placedBarrel } from './round.ts';
import { findPlayer, type BarrelLoc, type ZappState } from './state.ts';
import type { Rejection } from '../common/outcome.ts';
import type { ZappRejectionCode } from './rejections.ts';

const MOUNTAIN: BarrelLoc = { at: 'MOUNTAIN' };

/** How many barrels `player` holds. */
export function heldCount(state: ZappState, player: string): number {
  let n = 0;
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (loc?.at === 'HELD' && loc.player === player) n++;
  }
  return n;
}

/** Values of the barrels `player` holds. */
export function heldBarrels(state: ZappState, player: string): number[] {
  const out: number[] = [];
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (loc?.at === 'HELD' && loc.player === player) out.push(v);
  }
  return out;
}

/** Common checks: phase SELECT, a known player, a barrel 1..13. */
type Check = Rejection<ZappRejectionCode> | BarrelLoc;

function precheck(state: ZappState, action: { type: string; player: string; barrel: number }): Check {
  if (state.phase !== 'SELECT') return fail('WRONG_PHASE', `${action.type} is only possible while barrels are chosen (phase SELECT; now ${state.phase})`);
  if (!findPlayer(state, action.player)) return fail('UNKNOWN_PLAYER', `no player ${action.player}`);
  const loc = Number.isInteger(action.barrel) ? state.barrels[action.barrel] : undefined;
  if (!loc) return fail('UNKNOWN_BARREL', `no barrel ${action.barrel}; barrels are 1..13`);
  return loc;
}

function othersBarrel(loc: BarrelLoc, player: string, barrel: number): Rejection<ZappRejectionCode> | null {
  if (loc.at === 'HELD' && loc.player !== player) return fail('BARREL_HELD_BY_OTHER', `barrel ${barrel} is in ${loc.player}'s hands (ZAPP-23)`);
  if (loc.at === 'PLACED' && loc.player !== player) return fail('BARREL_PLACED_BY_OTHER', `barrel ${barrel} was chosen by ${loc.player} (ZAPP-25)`);
  return null;
}

/** `pick-up`: mountain → hands, at most `maxBarrelsInHand` (ZAPP-22), never after committing (ZAPP-24). */
export function applyPickUp(state: ZappState, action: PickUpAction): ZappOutcome {
  const loc = precheck(state, action);
  if ('ok' in loc) return loc;
  const { player, barrel } = action;
  if (placedBarrel(state, player) !== null) return fail('ALREADY_PLACED', `${player} has committed a barrel and may not shake any more (ZAPP-24)`);
  const other = othersBarrel(loc, player, barrel);
  if (other) return other;
  if (loc.at !== 'MOUNTAIN') return fail('ALREADY_HOLDING', `${player} already holds barrel ${barrel}`);
  const max = state.config.maxBarrelsInHand;
  if (heldCount(state, player) >= max) return fail('HAND_FULL', `${player} already holds ${max} barrel(s) (ZAPP-22)`);
  return applied({ ...state, barrels: { ...state.barrels, [barrel]: { at: 'HELD', player } } }, [{ type: 'BARREL_PICKED_UP', player }]);
}

/** `put-back`: hands → mountain (ZAPP-26). A placed barrel cannot be put back (ZAPP-25). */
export function applyPutBack(state: ZappState, action: PutBackAction): ZappOutcome {
  const loc = precheck(state, action);
  if ('ok' in loc) return loc;
  const { player, barrel } = action;
  if (loc.at === 'PLACED' && loc.player === player) return fail('BARREL_COMMITTED', `barrel ${barrel} is committed (ZAPP-24, ZAPP-25)`);
  const other = othersBarrel(loc, player, barrel);
  if (other) return other;
  if (loc.at !== 'HELD') return fail('NOT_HOLDING', `${player} does not hold barrel ${barrel}`);
  return applied({ ...state, barrels: { ...state.barrels, [barrel]: MOUNTAIN } }, [{ type: 'BARREL_PUT_BACK', player }]);
}

/**
 * `place`: commit exactly one barrel, held or straight from the mountain (the pad reads its tag). Final; a
 * second barrel still in hand goes back to the mountain at once (ZAPP-24).
 */
export function applyPlace(state: ZappState, action: PlaceAction): ZappOutcome {
  const loc = precheck(state, action);
  if ('ok' in loc) return loc;
  const { player, barrel } = action;
  if (placedBarrel(state, player) !== null) return fail('ALREADY_PLACED', `${player} has already placed a barrel; only one, and it is final (ZAPP-24)`);
  const other = othersBarrel(loc, player, barrel);
  if (other) return other;
  const barrels: Record<string, BarrelLoc> = { ...state.barrels, [barrel]: { at: 'PLACED', player } };
  let returned = 0;
  for (const v of heldBarrels(state, player)) {
    if (v === barrel) continue;
    barrels[v] = MOUNTAIN;
    returned++;
  }
  return applied({ ...state, barrels }, [{ type: 'BARREL_PLACED', player, returned }]);
}
