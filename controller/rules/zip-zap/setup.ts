/**
 * Setup (A.3): the suits in play, the cards out of play, and the deal of a round, by the engine (ZIP-4..6)
 * or at the table (Part C.3). Start flips are in `start-flip.ts`.
 */
import { shuffle, seedRng } from '../../kernel/random.ts';
import { ALL_CARD_IDS, ALL_SUITS, SOLID_SUITS, ZAP_IDS, numberCards, zapForSeat, type SolidSuit } from './cards.ts';
import { dealCount, removedSuitCount, roundsFor, type ZipZapConfig } from './config.ts';
import type { ZipZapEvent } from './events.ts';
import type { ZipZapState } from './state.ts';

/** Sorts card ids into their canonical order (suit by suit, 1..10, then ZAPs). */
export function canonical(cards: readonly string[]): string[] {
  const set = new Set(cards);
  return ALL_CARD_IDS.filter((c) => set.has(c));
}

/** The cards that are out of play for the whole game: removed suits and the ZAPs of absent seats (ZIP-2, ZIP-3). */
export function outOfPlayCards(removed: readonly SolidSuit[], players: number): string[] {
  return [...numberCards(removed), ...ZAP_IDS.slice(players)];
}

function perPlayer<T>(players: readonly string[], f: (p: string, i: number) => T): Record<string, T> {
  const out: Record<string, T> = {};
  players.forEach((p, i) => {
    out[p] = f(p, i);
  });
  return out;
}

/**
 * A new game before its first deal: removed suits chosen once for the whole game (ZIP-3, ZIP-Q-10), scores
 * at 0 (ZIP-7). `beginRound` deals.
 */
export function initialState(config: ZipZapConfig, seed: number | string): ZipZapState {
  let rng = seedRng(seed);
  let removed: SolidSuit[];
  if (config.removedSuits === 'RANDOM') {
    let order: SolidSuit[];
    [order, rng] = shuffle(rng, SOLID_SUITS);
    removed = order.slice(0, removedSuitCount(config.players.length));
  } else {
    removed = [...config.removedSuits];
  }
  removed = SOLID_SUITS.filter((s) => removed.includes(s));
  const players = config.players;
  const suits = ALL_SUITS.filter((s) => !(removed as string[]).includes(s));
  // Before the first deal every card in play waits in the reserve, so the card-place invariant holds.
  const reserve = numberCards(suits);
  return {
    game: 'zip-zap',
    config,
    players,
    suits,
    removedSuits: removed,
    roundsTotal: roundsFor(config),
    round: 1,
    misdeals: 0,
    rng,
    zapOf: perPlayer(players, (_p, i) => zapForSeat(i)),
    hands: perPlayer(players, (_p, i) => [zapForSeat(i)]),
    handCounts: perPlayer(players, () => 1),
    handKnown: perPlayer(players, () => true),
    reserve,
    reserveCount: reserve.length,
    unseen: [],
    outOfPlay: outOfPlayCards(removed, players.length),
    pile: [],
    mode: { kind: 'START' },
    stuck: false,
    roundScores: [],
    roundWinners: [],
    totals: perPlayer(players, () => 0),
    rejected: [],
    lastAt: null,
    tie: null,
    recent: [],
    settled: null,
  };
}

/** The fields every fresh round resets. */
function freshRound(state: ZipZapState): Pick<ZipZapState, 'pile' | 'stuck' | 'rejected' | 'tie' | 'recent' | 'settled' | 'zapOf'> {
  const zapOf = perPlayer(state.players, (_p, i) => zapForSeat(i));
  return { pile: [], stuck: false, rejected: [], tie: null, recent: [], settled: null, zapOf };
}

/**
 * ENGINE dealing (ZIP-4..6, ZIP-52): gather and shuffle the number cards in play, deal each player their
 * count plus their own ZAP, and put the rest in the reserve. Mode START: the flips follow.
 */
export function dealEngine(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  const [deck, rng] = shuffle(state.rng, numberCards(state.suits));
  const k = dealCount(state.players.length);
  const fresh = freshRound(state);
  const hands = perPlayer(state.players, (p, i) => [...deck.slice(i * k, (i + 1) * k), fresh.zapOf[p] as string]);
  const reserve = deck.slice(state.players.length * k);
  const handCounts = perPlayer(state.players, () => k + 1);
  events.push({ type: 'ROUND_DEALT', round: state.round, handCounts, reserveCount: reserve.length });
  return {
    ...state,
    ...fresh,
    rng,
    hands,
    handCounts,
    handKnown: perPlayer(state.players, () => true),
    reserve,
    reserveCount: reserve.length,
    unseen: [],
    mode: { kind: 'START' },
  };
}

/**
 * TABLE dealing (Part C.3): the cards are dealt physically, so every card in play is `unseen` until hands
 * are registered. The engine knows only the counts (ZIP-4..6).
 */
export function dealTable(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  const k = dealCount(state.players.length);
  const fresh = freshRound(state);
  const inPlay = [...numberCards(state.suits), ...ZAP_IDS.slice(0, state.players.length)];
  const handCounts = perPlayer(state.players, () => k + 1);
  const reserveCount = numberCards(state.suits).length - k * state.players.length;
  events.push({ type: 'ROUND_DEALT', round: state.round, handCounts, reserveCount });
  return {
    ...state,
    ...fresh,
    hands: perPlayer(state.players, () => []),
    handCounts,
    handKnown: perPlayer(state.players, () => false),
    reserve: [],
    reserveCount,
    unseen: inPlay,
    mode: { kind: 'DEALING' },
  };
}

/** Deals the current round the configured way. */
export function deal(state: ZipZapState, events: ZipZapEvent[]): ZipZapState {
  return state.config.dealing === 'ENGINE' ? dealEngine(state, events) : dealTable(state, events);
}
