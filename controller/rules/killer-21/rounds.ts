/**
 * Setting up (K21-3..6) and dealing each round (K21-4, K21-53): every card is gathered and shuffled with the
 * seeded generator, each player still in gets `handSize` cards, one at a time from the player after the
 * dealer, and the rest is the face-down deck. The first player sits after (to the left of) the dealer. With
 * `dealing: TABLE` people deal a real deck instead (table-deal.ts).
 */
import { applied } from '../common/outcome.ts';
import { seedRng, shuffle } from '../../kernel/random.ts';
import { allCards } from './cards.ts';
import type { Killer21Config } from './config.ts';
import type { Killer21Event } from './events.ts';
import { beginTurn } from './moment.ts';
import { refuse } from './rejections.ts';
import { nextActive } from './seats.ts';
import { activePlayers, type Draft, type K21Outcome, type Killer21State } from './state.ts';
import { dealTable } from './table-deal.ts';

/** Deals round `state.round + 1` with `dealer` dealing. */
export function dealRound(state: Killer21State, dealer: string, events: Killer21Event[]): Draft {
  if (state.config.dealing === 'TABLE') return dealTable(state, dealer, events);
  const [cards, rng] = shuffle(state.rng, allCards(state.config.deck));
  const first = nextActive(state, dealer, 1, 1);
  const active = activePlayers(state);
  const start = active.indexOf(first);
  const order = [...active.slice(start), ...active.slice(0, start)];
  const hands: Record<string, string[]> = {};
  for (const p of state.players) hands[p] = [];
  let next = 0;
  for (let k = 0; k < state.config.handSize; k++) {
    for (const p of order) (hands[p] as string[]).push(cards[next++] as string);
  }
  const round = state.round + 1;
  const handCounts: Record<string, number> = {};
  for (const p of state.players) handCounts[p] = hands[p]?.length ?? 0;
  const deck = cards.slice(next);
  events.push({ type: 'ROUND_DEALT', round, dealer, first, handCounts, deckCount: deck.length });
  const dealt: Draft = {
    ...state, rng, round, dealer, hands, deck, pile: [], total: 0, direction: 1, killer: null,
  };
  return beginTurn(dealt, first, events);
}

/** A new game: everyone has `config.lives`, and the first round is dealt (K21-3..6). */
export function newGame(config: Killer21Config, seed: number | string): { state: Killer21State; events: Killer21Event[] } {
  const lives: Record<string, number> = {};
  for (const p of config.players) lives[p] = config.lives;
  const initial: Killer21State = {
    game: 'killer-21',
    config,
    players: config.players,
    rng: seedRng(seed),
    round: 0,
    dealer: config.dealer ?? (config.players[config.players.length - 1] as string),
    turn: null,
    direction: 1,
    total: 0,
    phase: 'TURN',
    lives,
    hands: {},
    deck: [],
    pile: [],
    killer: null,
    roundWinners: [],
    out: [],
    winners: [],
    losses: [],
    reshuffles: 0,
    hidden: null,
    scoring: null,
  };
  const events: Killer21Event[] = [{ type: 'GAME_STARTED', players: config.players, lives: config.lives, variant: config.variant }];
  const state = dealRound(initial, initial.dealer, events);
  return { state, events };
}

/** `next-round`: the player to the left of the previous dealer deals (K21-53). */
export function nextRoundAction(state: Killer21State): K21Outcome {
  if (state.phase === 'GAME_OVER') return refuse('GAME_OVER', 'the game has ended');
  if (state.phase !== 'ROUND_OVER') return refuse('ROUND_NOT_OVER', 'the round is still being played');
  const events: Killer21Event[] = [];
  return applied(dealRound(state, nextActive(state, state.dealer, 1, 1), events), events);
}
