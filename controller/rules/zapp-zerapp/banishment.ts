/**
 * Banishment (B.7) and, in PRO, which pieces on the path are carryable (B.8): the verdict on every piece a
 * move passes or lands on, and the CLAIM window of ZAPP-57.
 */
import { applied } from '../common/outcome.ts';
import type { ClaimAction } from './actions.ts';
import type { Colour, BoardSpec } from './board-spec.ts';
import { hasCastle, isProtected, type Variant } from './board.ts';
import type { StartImmunityReading } from './config.ts';
import type { ZappEvent } from './events.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import type { ZappState } from './state.ts';

/**
 * What happens to a piece standing on the path:
 * - BANISH: back to START (ZAPP-50; in CLAIM mode only when claimed, ZAPP-57);
 * - PROTECTED: on its own colour (ZAPP-51) or, in PRO, under its castle on the landing field (ZAPP-61);
 * - OWN: the mover's own piece, never banished (ZAPP-52, ZAPP-72);
 * - CARRYABLE: PRO, on a passed carrying field showing its castle; the mover chooses (ZAPP-63);
 * - IMMUNE: spared by a START-immunity reading (ZAPP-Q-3 b/c).
 */
export type Verdict = 'BANISH' | 'PROTECTED' | 'OWN' | 'CARRYABLE' | 'IMMUNE';

/** The rules context of one move. */
export interface JudgeContext {
  readonly board: BoardSpec;
  readonly variant: Variant;
  readonly reading: StartImmunityReading;
  readonly mover: Colour;
  /** Whether the moving piece set off from START this move. */
  readonly fromStart: boolean;
}

/**
 * The verdict on a piece of colour `colour` standing on `field` when the move began. `landed` is true on the
 * destination field, where nothing is carried (ZAPP-71). Origin pieces never reach here (ZAPP-53, ZAPP-64).
 */
export function judge(ctx: JudgeContext, colour: Colour, field: number, landed: boolean): Verdict {
  const carrying = ctx.variant === 'PRO' && !landed && hasCastle(ctx.board, field, colour);
  if (colour === ctx.mover) return carrying ? 'CARRYABLE' : 'OWN';
  if (carrying) return 'CARRYABLE';
  if (isProtected(ctx.board, colour, field, ctx.variant)) return 'PROTECTED';
  // ZAPP-Q-3 (b): a piece moving off START does not banish.
  if (ctx.reading === 'LAUNCHING_PIECE_CANNOT_BANISH' && ctx.fromStart) return 'IMMUNE';
  // ZAPP-Q-3 (c): a piece standing on its own entry field ("just set off") is safe.
  if (ctx.reading === 'JUST_ENTERED_PIECE_SAFE' && field === ctx.board.homes[colour].entryField) return 'IMMUNE';
  return 'BANISH';
}

/**
 * ZAPP-57: the claim window closes when the next mover acts (move or pass) or the next roll starts Phase 1.
 * Unclaimed pieces were lucky and stay.
 */
export function closeClaimWindow(state: ZappState, events: ZappEvent[]): ZappState {
  if (!state.claim) return state;
  events.push({ type: 'CLAIM_WINDOW_CLOSED', player: state.claim.player, unclaimed: state.claim.pieces });
  return { ...state, claim: null };
}

/** `claim`: the last mover banishes pieces it overtook or caught unprotected, while the window is open. */
export function applyClaim(state: ZappState, action: ClaimAction): ZappOutcome {
  const window = state.claim;
  if (state.config.banishMode !== 'CLAIM' || !window) return fail('NO_CLAIM_WINDOW', 'there is nothing to claim now (ZAPP-57)');
  if (action.player !== window.player) return fail('NOT_YOUR_CLAIM', `only ${window.player} may claim now`);
  const unique = [...new Set(action.pieces)];
  const bad = unique.filter((p) => !window.pieces.includes(p));
  if (bad.length > 0) return fail('NOT_CLAIMABLE', `${bad.join(', ')} cannot be claimed; claimable: ${window.pieces.join(', ') || 'none'}`);
  const pieces = { ...state.pieces };
  const events: ZappEvent[] = [];
  for (const id of unique) {
    const from = pieces[id];
    if (typeof from === 'number') events.push({ type: 'PIECE_BANISHED', piece: id, from, by: window.player, claimed: true });
    pieces[id] = 'START';
  }
  const rest = window.pieces.filter((p) => !unique.includes(p));
  return applied({ ...state, pieces, claim: rest.length > 0 ? { player: window.player, pieces: rest } : null }, events);
}
