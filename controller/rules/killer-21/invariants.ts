/**
 * Invariants every reachable state keeps. The property tests call `checkInvariants` after every action of
 * random games; it returns one line per violation (empty when all is well) and never throws.
 */
import { allCards, inDeck } from './cards.ts';
import { LIMIT } from './playable.ts';
import { handCount, hiddenCards, hiddenIn, type Killer21State } from './state.ts';

function cardPlaces(state: Killer21State, out: string[]): void {
  const seen = new Map<string, string>();
  const put = (card: string, where: string): void => {
    const before = seen.get(card);
    if (before !== undefined) out.push(`card ${card} is in two places: ${before} and ${where}`);
    seen.set(card, where);
    if (!inDeck(state.config.deck, card)) out.push(`${card} (${where}) is not a card of this deck`);
  };
  for (const p of state.players) for (const c of state.hands[p] ?? []) put(c, `hand of ${p}`);
  for (const c of state.deck) put(c, 'the deck');
  for (const r of state.pile) put(r.card, 'the pile');
  for (const c of state.hidden?.cards ?? []) put(c, 'the unseen cards');
  for (const c of allCards(state.config.deck)) if (!seen.has(c)) out.push(`card ${c} is nowhere`);
}

/** K21-90..98: the unseen cards are exactly the ones the counts say are in hands and the deck. */
function unseen(state: Killer21State, out: string[]): void {
  const h = hiddenCards(state);
  if (h === null) {
    if (state.config.dealing === 'TABLE') out.push('a table-dealt game without its unseen cards');
    return;
  }
  if (state.config.dealing !== 'TABLE') out.push('unseen cards in a game the engine dealt');
  if (state.deck.length > 0) out.push('a table-dealt game with a known deck');
  let inHands = 0;
  for (const [p, n] of Object.entries(h.inHand)) {
    if (!state.players.includes(p)) out.push(`unseen cards counted for ${p}, not a player`);
    if (!Number.isInteger(n) || n < 0) out.push(`${p} holds ${n} unseen cards`);
    if (n > 0 && (state.lives[p] ?? 0) === 0) out.push(`${p} is out but holds unseen cards`);
    inHands += n;
  }
  if (!Number.isInteger(h.deck) || h.deck < 0) out.push(`the deck holds ${h.deck} unseen cards`);
  if (inHands + h.deck !== h.cards.length) {
    out.push(`${h.cards.length} unseen cards, but hands hold ${inHands} and the deck ${h.deck}`);
  }
}

function players(state: Killer21State, out: string[]): void {
  for (const p of state.players) {
    const lives = state.lives[p];
    if (lives === undefined || !Number.isInteger(lives) || lives < 0 || lives > state.config.lives) {
      out.push(`${p} has ${lives} lives, outside 0..${state.config.lives}`);
    }
    const outOfGame = (lives ?? 0) === 0;
    if (outOfGame && handCount(state, p) > 0) out.push(`${p} is out but holds cards`);
    if (outOfGame !== state.out.includes(p)) out.push(`${p}: lives ${lives} disagree with the out list`);
  }
  const live = state.players.filter((p) => (state.lives[p] ?? 0) > 0);
  const decided = state.phase === 'GAME_OVER' || state.phase === 'SCORING';
  if (!decided && live.length < (state.config.variant === 'BLITZ' ? state.players.length : 2)) {
    out.push(`${live.length} players left but the game is not over`);
  }
}

function phase(state: Killer21State, out: string[]): void {
  if (!Number.isInteger(state.total) || state.total < 0 || state.total > LIMIT) out.push(`running total ${state.total} outside 0..${LIMIT}`);
  const onTurn = state.turn !== null && (state.lives[state.turn] ?? 0) > 0;
  switch (state.phase) {
    case 'TURN':
    case 'DEALING':
      if (!onTurn) out.push(`${state.phase} phase but ${state.turn ?? 'nobody'} is not a player with lives`);
      if (state.killer !== null) out.push(`${state.phase} phase with a Killer window`);
      for (const p of state.players) {
        if ((state.lives[p] ?? 0) > 0 && handCount(state, p) === 0) out.push(`${p} is in with an empty hand mid-round`);
      }
      if (state.phase === 'DEALING' && state.players.every((p) => hiddenIn(state, p) === 0)) out.push('DEALING with every hand registered');
      break;
    case 'SCORING': {
      const s = state.scoring;
      if (s === undefined || s === null) out.push('SCORING without a tie-break');
      else if (Object.keys(s.pending).length === 0) out.push('SCORING with no hand left to register');
      if (state.turn !== null || state.killer !== null) out.push('SCORING with a turn or a Killer window');
      break;
    }
    case 'KILLER': {
      const w = state.killer;
      if (w === null) {
        out.push('KILLER phase without a window');
        break;
      }
      for (const p of w.required) if (w.answers[p] === undefined) out.push(`${p} must answer but has no answer entry`);
      if (!w.closed && w.required.every((p) => w.answers[p]?.status !== 'PENDING')) out.push('everyone answered but the window is open');
      break;
    }
    case 'ROUND_OVER':
    case 'GAME_OVER':
      if (state.turn !== null || state.killer !== null) out.push(`${state.phase} with a turn or a Killer window`);
      break;
  }
  if ((state.phase === 'GAME_OVER') !== (state.winners.length > 0)) out.push('winners are set iff the game is over');
  if (state.phase !== 'SCORING' && state.scoring !== undefined && state.scoring !== null) out.push(`${state.phase} with a tie-break`);
}

/** Every broken invariant, one line each. */
export function checkInvariants(state: Killer21State): string[] {
  const out: string[] = [];
  cardPlaces(state, out);
  unseen(state, out);
  players(state, out);
  phase(state, out);
  return out;
}
