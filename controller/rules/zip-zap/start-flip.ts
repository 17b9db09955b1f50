/**
 * The start of a round: ZIP-10 (flip the top reserve card), ZIP-11 (flip again while nobody can follow)
 * and ZIP-Q-2 (the reserve runs out: `REDEAL` deals again without counting the round, `OPEN_START` lets the
 * first number card anyone plays start the race).
 */
import { applied } from '../common/outcome.ts';
import { cardInfo, followersOf } from './cards.ts';
import type { ZipZapEvent } from './events.ts';
import { anyoneCanFollow } from './follows.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { dealEngine, dealTable } from './setup.ts';
import { allHandsKnown, topOf, type ZipZapState, type ZipOutcome } from './state.ts';

/**
 * REDEAL retries are capped so the loop provably ends; after this many misdeals in a row the engine opens
 * the start instead. It never happens in practice (a misdeal is a ≈0.8% event).
 */
const MAX_REDEALS_IN_A_ROW = 100;

function flipCard(state: ZipZapState, card: string, events: ZipZapEvent[], at: number | undefined): ZipZapState {
  const knownReserve = state.reserve.length > 0;
  const record = at === undefined ? { card, by: null, kind: 'START_FLIP' as const } : { card, by: null, kind: 'START_FLIP' as const, at };
  events.push({ type: 'CARD_FLIPPED', card, reflip: state.pile.length > 0 });
  return {
    ...state,
    reserve: knownReserve ? state.reserve.filter((c) => c !== card) : state.reserve,
    unseen: knownReserve ? state.unseen : state.unseen.filter((c) => c !== card),
    reserveCount: state.reserveCount - 1,
    pile: [...state.pile, record],
  };
}

function openStart(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  events.push({ type: 'OPEN_START' });
  return { ...state, mode: { kind: 'OPEN_START' } };
}

/**
 * The reserve is empty and the start is still blocked (ZIP-Q-2). TABLE dealing goes back to DEALING after a
 * misdeal (the cards are gathered and dealt again by hand).
 */
export function reserveExhausted(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  if (state.config.reserveExhausted === 'OPEN_START') return openStart(state, events);
  events.push({ type: 'MISDEAL', round: state.round });
  const next = { ...state, misdeals: state.misdeals + 1 };
  return state.config.dealing === 'ENGINE' ? startFlips(dealEngine(next, events), events) : dealTable(next, events);
}

/** ENGINE dealing: ZIP-10/11 flips from the reserve until some hand can follow; then the race is on. */
export function startFlips(state: ZipZapState, events: ZipZapEvent[], at?: number): ZipZapState {
  let s = state;
  let redeals = 0;
  for (;;) {
    const card = s.reserve[0];
    if (card === undefined) {
      if (s.config.reserveExhausted === 'OPEN_START' || redeals >= MAX_REDEALS_IN_A_ROW) return openStart(s, events);
      // REDEAL: the round is not scored and not counted (ZIP-Q-2); the same round number is dealt again.
      events.push({ type: 'MISDEAL', round: s.round });
      s = dealEngine({ ...s, misdeals: s.misdeals + 1 }, events);
      redeals++;
      continue;
    }
    s = flipCard(s, card, events, at);
    if (anyoneCanFollow(s, card)) return { ...s, mode: { kind: 'RACE' } };
  }
}

/** Whether a flipped `card` blocks the start: nothing follows it, as far as the engine can tell (ZIP-11). */
function blocksStart(state: ZipZapState, card: string): boolean {
  if (followersOf(card).length === 0) return true;
  return allHandsKnown(state) && !anyoneCanFollow(state, card);
}

/** Whether another card may be flipped now: before the first flip, or while only flipped cards are on the pile. */
function mayFlip(state: ZipZapState): ZipRejection | null {
  if (state.mode.kind === 'START') return null;
  const top = topOf(state);
  if (state.mode.kind === 'RACE' && top?.kind === 'START_FLIP' && state.config.dealing === 'TABLE') {
    // With unknown hands the humans judge that nobody can follow the flipped card (ZIP-11).
    return allHandsKnown(state) ? refuse('SOMEONE_CAN_PLAY', `somebody can follow ${top.card}; no re-flip (ZIP-11)`) : null;
  }
  return refuse('WRONG_PHASE', `a card is flipped only at the start of a round (mode ${state.mode.kind})`);
}

/**
 * The `flip` action. ENGINE dealing: flips from the engine's reserve with every re-flip ZIP-11 needs (only
 * reachable from a scenario set up in START). TABLE dealing: the card seen on the pile, one at a time.
 */
export function flipAction(state: ZipZapState, card: string | undefined, at: number | undefined): ZipOutcome {
  const phase = mayFlip(state);
  if (phase !== null) return phase;
  const events: ZipZapEvent[] = [];
  if (state.config.dealing === 'ENGINE') {
    if (card !== undefined) return refuse('BAD_ACTION', 'ENGINE dealing flips from its own reserve: omit card');
    return applied(startFlips(state, events, at), events);
  }
  if (card === undefined) return refuse('BAD_ACTION', 'TABLE dealing: flip needs the card that was flipped');
  if (cardInfo(card)?.kind !== 'NUMBER' || state.outOfPlay.includes(card)) return refuse('UNKNOWN_CARD', `${card} is not a number card in play`);
  if (state.reserveCount === 0) return refuse('RESERVE_EMPTY', 'the reserve is empty (ZIP-Q-2)');
  const possible = state.reserve.length > 0 ? state.reserve.includes(card) : state.unseen.includes(card);
  if (!possible) return refuse('NOT_IN_RESERVE', `${card} is known to be elsewhere, not in the reserve`);
  let s = flipCard(state, card, events, at);
  if (!blocksStart(s, card)) return applied({ ...s, mode: { kind: 'RACE' } }, events);
  if (s.reserveCount === 0) s = reserveExhausted(s, events);
  else {
    events.push({ type: 'REFLIP_NEEDED', top: card });
    s = { ...s, mode: { kind: 'START' } };
  }
  return applied(s, events);
}
