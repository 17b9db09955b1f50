/**
 * TABLE dealing (Part C.3): the cards are dealt physically. Each player registers their hand once
 * (`register-hand`, all cards including the ZAP), after which the engine knows it; or the table plays on
 * without (`skip-registration`): the engine then tracks only counts and the cards it has seen, and unknown
 * hands are scored at round end with `score-hand`.
 */
import { applied } from '../common/outcome.ts';
import { cardInfo } from './cards.ts';
import type { ZipZapEvent } from './events.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { commitRound, handPoints } from './scoring.ts';
import { canonical } from './setup.ts';
import { holdsZap, withEntry, type ZipZapState, type ZipOutcome } from './state.ts';

/** Checks that `cards` can be `player`'s unknown hand; returns the ZAP among them, if any. */
function handRejection(state: ZipZapState, player: string, cards: readonly string[], zapRequired: boolean): ZipRejection | null {
  const count = state.handCounts[player] ?? 0;
  if (cards.length !== count) return refuse('BAD_HAND', `${player} holds ${count} cards, ${cards.length} given`);
  if (new Set(cards).size !== cards.length) return refuse('BAD_HAND', 'a card is listed twice');
  const unseen = new Set(state.unseen);
  const elsewhere = cards.filter((c) => !unseen.has(c));
  if (elsewhere.length > 0) return refuse('BAD_HAND', `not available (unknown, out of play or seen elsewhere): ${elsewhere.join(', ')}`);
  const zaps = cards.filter((c) => cardInfo(c)?.kind === 'ZAP');
  if (zaps.length !== (zapRequired ? 1 : 0)) {
    return refuse('BAD_HAND', zapRequired ? `the hand must hold exactly one ZAP, got ${zaps.length}` : 'the ZAP was already played');
  }
  return null;
}

/** Moves `cards` out of `unseen` into `player`'s now known hand. */
function reveal(state: ZipZapState, player: string, cards: readonly string[]): ZipZapState {
  const taken = new Set(cards);
  return {
    ...state,
    hands: withEntry(state.hands, player, [...cards]),
    handKnown: withEntry(state.handKnown, player, true),
    unseen: state.unseen.filter((c) => !taken.has(c)),
  };
}

/** Once every hand is known, what is left unseen is the reserve: the engine knows its cards (not their order). */
function settleReserve(state: ZipZapState): ZipZapState {
  if (state.players.some((p) => state.handKnown[p] !== true)) return state;
  if (state.unseen.length === 0) return state;
  return { ...state, reserve: [...state.reserve, ...canonical(state.unseen)], unseen: [] };
}

/** `register-hand`: the player's dealt hand, read from their pad. */
export function registerHand(state: ZipZapState, player: string, cards: readonly string[]): ZipOutcome {
  if (state.mode.kind !== 'DEALING') return refuse('WRONG_PHASE', 'hands are registered right after the deal');
  if (!state.players.includes(player)) return refuse('NOT_A_PLAYER', `${player} is not at this table`);
  if (state.handKnown[player] === true) return refuse('HAND_ALREADY_KNOWN', `${player}'s hand is already registered`);
  const bad = handRejection(state, player, cards, true);
  if (bad !== null) return bad;
  // ZAPs look alike (A.2); the one in the registered hand is this player's for the round. Swap owners if needed.
  const zap = cards.find((c) => cardInfo(c)?.kind === 'ZAP') as string;
  const previous = state.zapOf[player] as string;
  const other = state.players.find((p) => p !== player && state.zapOf[p] === zap);
  const zapOf = other === undefined ? withEntry(state.zapOf, player, zap) : { ...state.zapOf, [player]: zap, [other]: previous };
  const events: ZipZapEvent[] = [{ type: 'HAND_REGISTERED', player, count: cards.length, cards: [...cards] }];
  let s = settleReserve(reveal({ ...state, zapOf }, player, cards));
  if (state.players.every((p) => s.handKnown[p] === true)) s = { ...s, mode: { kind: 'START' } };
  return applied(s, events);
}

/** `skip-registration`: play on with the remaining hands unknown; stuck detection falls back to HUMAN. */
export function skipRegistration(state: ZipZapState): ZipOutcome {
  if (state.mode.kind !== 'DEALING') return refuse('WRONG_PHASE', 'registration can only be skipped right after the deal');
  const players = state.players.filter((p) => state.handKnown[p] !== true);
  return applied({ ...state, mode: { kind: 'START' } }, [{ type: 'REGISTRATION_SKIPPED', players }]);
}

/** `score-hand`: an unknown hand's cards at round end (ZIP-51). */
export function scoreHand(state: ZipZapState, player: string, cards: readonly string[]): ZipOutcome {
  const mode = state.mode;
  if (mode.kind !== 'ROUND_OVER') return refuse('WRONG_PHASE', 'hands are scored at the end of a round');
  if (!state.players.includes(player)) return refuse('NOT_A_PLAYER', `${player} is not at this table`);
  if (!mode.pending.includes(player)) return refuse('HAND_ALREADY_KNOWN', `${player}'s hand is known or already scored`);
  const bad = handRejection(state, player, cards, holdsZap(state, player));
  if (bad !== null) return bad;
  const points = handPoints(cards);
  const events: ZipZapEvent[] = [{ type: 'HAND_SCORED', player, points }];
  const pending = mode.pending.filter((p) => p !== player);
  const allPoints = { ...mode.points, [player]: points };
  const s = settleReserve(reveal(state, player, cards));
  if (pending.length > 0) return applied({ ...s, mode: { ...mode, pending, points: allPoints } }, events);
  return applied(commitRound(s, mode.winner, allPoints, events), events);
}
