/**
 * Phase 3 (B.5, B.6): applying `move` and `pass` for the current mover, returning the barrel (ZAPP-32),
 * checking for the win (ZAPP-80) and calling the next mover.
 */
import { applied, type Rejection } from '../common/outcome.ts';
import type { MoveAction, PassAction } from './actions.ts';
import type { Loc } from './board.ts';
import { closeClaimWindow } from './banishment.ts';
import { resolveCarry } from './carrying.ts';
import type { ReturnReason, ZappEvent } from './events.ts';
import { planMove } from './movement.ts';
import { fail, type ZappOutcome, type ZappRejectionCode } from './rejections.ts';
import { advanceQueue, placedBarrel } from './round.ts';
import { findPlayer, pieceColour, piecesInCity, type BarrelLoc, type PlayerState, type ZappState } from './state.ts';

const MOUNTAIN: BarrelLoc = { at: 'MOUNTAIN' };

/** Checks that `player` is the current mover (B.6 step 1) and returns them with their barrel. */
type MoverCheck = Rejection<ZappRejectionCode> | { p: PlayerState; steps: number };

function checkMover(state: ZappState, type: string, player: string): MoverCheck {
  if (state.phase !== 'MOVE') return fail('WRONG_PHASE', `${type} is only possible after the reveal (phase MOVE; now ${state.phase})`);
  const p = findPlayer(state, player);
  if (!p) return fail('UNKNOWN_PLAYER', `no player ${player}`);
  const mover = state.moveQueue[0];
  if (player !== mover) return fail('NOT_YOUR_TURN', `it is ${mover ?? 'nobody'}'s move, not ${player}'s (ZAPP-30)`);
  return { p, steps: placedBarrel(state, player) ?? 0 };
}

/** ZAPP-32: the mover's barrel goes back to the mountain. */
function returnBarrel(state: ZappState, player: string, reason: ReturnReason, events: ZappEvent[]): ZappState {
  const v = placedBarrel(state, player);
  if (v === null) return state;
  events.push({ type: 'BARREL_RETURNED', player, barrel: v, reason });
  return { ...state, barrels: { ...state.barrels, [v]: MOUNTAIN } };
}

/** ZAPP-80: the game ends at once; the remaining movers do not move and their barrels go back. */
function finish(state: ZappState, p: PlayerState, events: ZappEvent[]): ZappState {
  let s = state;
  for (const other of state.moveQueue.slice(1)) s = returnBarrel(s, other, 'GAME_OVER', events);
  events.push({ type: 'GAME_WON', player: p.id, colour: p.colour, round: state.round });
  return { ...s, phase: 'DONE', winner: p.id, moveQueue: [], claim: null };
}

/** A location in words, for messages. */
function where(loc: Loc): string {
  return typeof loc === 'number' ? `field ${loc}` : loc === 'CITY' ? 'the city' : 'the start';
}

/** `move`: the B.6 move-resolution procedure. */
export function applyMove(state: ZappState, action: MoveAction): ZappOutcome {
  const who = checkMover(state, 'move', action.player);
  if ('ok' in who) return who;
  const { p, steps } = who;
  const loc = state.pieces[action.piece];
  if (loc === undefined) return fail('UNKNOWN_PIECE', `no piece ${action.piece} in this game`);
  if (pieceColour(action.piece) !== p.colour) return fail('NOT_YOUR_PIECE', `${action.piece} is not ${p.colour} (ZAPP-31)`);
  if (loc === 'CITY') return fail('PIECE_IN_CITY', `${action.piece} is already in the city (ZAPP-48)`);
  const plan = planMove(state, action.piece, steps);
  if (action.to !== undefined && action.to !== plan.to) {
    return fail('WRONG_DESTINATION', `${action.piece} moves ${steps} from ${where(plan.from)} to ${where(plan.to)}, not ${where(action.to)} (ZAPP-31)`);
  }
  const carried = resolveCarry(state, plan, action.carry, action.intoCity);
  if ('ok' in carried) return carried;

  const events: ZappEvent[] = [];
  let s = closeClaimWindow(state, events);
  events.push({ type: 'PIECE_MOVED', player: p.id, piece: plan.piece, from: plan.from, to: plan.to, path: plan.path, steps,
    forfeited: plan.forfeited });
  const pieces: Record<string, Loc> = { ...s.pieces, [plan.piece]: plan.to };
  const claimable: string[] = [];
  for (const e of plan.encounters) {
    if (e.verdict !== 'BANISH') continue;
    if (s.config.banishMode === 'CLAIM') claimable.push(e.piece);
    else {
      pieces[e.piece] = 'START';
      events.push({ type: 'PIECE_BANISHED', piece: e.piece, from: e.field, by: p.id, claimed: false });
    }
  }
  // ZAPP-69: carried pieces neither banish nor get banished; they are put down after the move.
  for (const c of carried) {
    pieces[c.piece] = c.to;
    events.push({ type: 'PIECE_CARRIED', piece: c.piece, from: c.from, to: c.to, by: p.id });
  }
  s = { ...s, pieces };
  if (claimable.length > 0) {
    s = { ...s, claim: { player: p.id, pieces: claimable } };
    events.push({ type: 'BANISHMENT_CLAIMABLE', player: p.id, pieces: claimable });
  }
  s = returnBarrel(s, p.id, 'MOVED', events);
  // In PRO the third piece may arrive carried (ZAPP-67, ZAPP-80).
  if (piecesInCity(s, p.colour) === 3) return applied(finish(s, p, events), events);
  return applied(advanceQueue(s, events), events);
}

/** `pass`: only with `moveMandatory: false` (ZAPP-Q-5). */
export function applyPass(state: ZappState, action: PassAction): ZappOutcome {
  const who = checkMover(state, 'pass', action.player);
  if ('ok' in who) return who;
  if (state.config.moveMandatory) return fail('PASS_NOT_ALLOWED', 'a successful player must move (moveMandatory, ZAPP-Q-5)');
  const events: ZappEvent[] = [];
  let s = closeClaimWindow(state, events);
  events.push({ type: 'MOVE_PASSED', player: action.player });
  s = returnBarrel(s, action.player, 'PASSED', events);
  return applied(advanceQueue(s, events), events);
}
