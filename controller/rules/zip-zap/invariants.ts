/**
 * Invariants every reachable state keeps. The property tests call `checkInvariants` after every action of
 * random games; it returns one line per violation (empty when all is well) and never throws.
 */
import { ALL_CARD_IDS, cardInfo, suitOf } from './cards.ts';
import { dealCount } from './config.ts';
import { isStuck } from './follows.ts';
import type { ZipZapState } from './state.ts';

function cardPlaces(state: ZipZapState, out: string[]): void {
  const seen = new Map<string, string>();
  const put = (card: string, where: string): void => {
    const before = seen.get(card);
    if (before !== undefined) out.push(`card ${card} is in two places: ${before} and ${where}`);
    seen.set(card, where);
  };
  for (const p of state.players) for (const c of state.hands[p] ?? []) put(c, `hand of ${p}`);
  for (const r of state.pile) put(r.card, 'the pile');
  for (const c of state.reserve) put(c, 'the reserve');
  for (const c of state.unseen) put(c, 'unseen');
  for (const c of state.outOfPlay) put(c, 'out of play');
  for (const c of ALL_CARD_IDS) if (!seen.has(c)) out.push(`card ${c} is nowhere`);
  for (const c of seen.keys()) if (cardInfo(c) === undefined) out.push(`unknown card id ${c}`);
  for (const c of state.outOfPlay) {
    const suit = suitOf(c);
    if (suit !== undefined && state.suits.includes(suit)) out.push(`card ${c} of a suit in play is out of play`);
  }
  for (const r of state.pile) {
    const suit = suitOf(r.card);
    if (suit !== undefined && !state.suits.includes(suit)) out.push(`card ${r.card} of a removed suit is on the pile`);
  }
}

function handsAndCounts(state: ZipZapState, out: string[]): void {
  const max = dealCount(state.players.length) + 1;
  let unknownCards = 0;
  for (const p of state.players) {
    const count = state.handCounts[p];
    const hand = state.hands[p] ?? [];
    if (count === undefined || count < 0 || count > max) out.push(`hand count of ${p} is ${count}, outside 0..${max}`);
    if (state.handKnown[p] === true) {
      if (hand.length !== count) out.push(`${p} holds ${hand.length} cards but the count says ${count}`);
    } else {
      if (hand.length !== 0) out.push(`${p}'s hand is unknown but lists cards`);
      unknownCards += count ?? 0;
    }
    const zaps = hand.filter((c) => cardInfo(c)?.kind === 'ZAP');
    if (zaps.length > 1 || (zaps.length === 1 && zaps[0] !== state.zapOf[p])) out.push(`${p} holds a ZAP that is not theirs: ${zaps.join(', ')}`);
  }
  const unknownReserve = state.reserveCount - state.reserve.length;
  if (unknownReserve < 0 || (unknownReserve > 0 && state.reserve.length > 0)) {
    out.push(`reserve count ${state.reserveCount} does not fit the ${state.reserve.length} known reserve cards`);
  }
  if (state.unseen.length !== unknownCards + unknownReserve) {
    out.push(`${state.unseen.length} unseen cards, but unknown hands hold ${unknownCards} and the unknown reserve ${unknownReserve}`);
  }
  const zapOwners = new Set(Object.values(state.zapOf));
  if (zapOwners.size !== state.players.length) out.push('two players share a ZAP');
}

function scores(state: ZipZapState, out: string[]): void {
  if (state.roundScores.length !== state.roundWinners.length) out.push('round scores and round winners differ in length');
  if (state.roundScores.length > state.roundsTotal) out.push('more rounds scored than the game has');
  for (const p of state.players) {
    const sum = state.roundScores.reduce((acc, r) => acc + (r[p] ?? 0), 0);
    if (sum !== state.totals[p]) out.push(`total of ${p} is ${state.totals[p]}, the rounds add up to ${sum}`);
  }
  state.roundScores.forEach((r, i) => {
    const w = state.roundWinners[i] as string;
    const want = state.config.scoringMode === 'WINS' ? 1 : 0;
    if (r[w] !== want) out.push(`round ${i + 1}: winner ${w} scored ${r[w]}, expected ${want}`);
  });
  const over = state.mode.kind === 'GAME_OVER';
  if (over !== (state.roundScores.length === state.roundsTotal)) out.push('the game is over exactly when every round is scored');
}

function modes(state: ZipZapState, out: string[]): void {
  const mode = state.mode;
  const top = state.pile[state.pile.length - 1];
  switch (mode.kind) {
    case 'PAUSED':
      if (!state.players.includes(mode.controller)) out.push(`pause controller ${mode.controller} is not a player`);
      if ((state.handCounts[mode.controller] ?? 0) === 0) out.push('the pause controller has no cards');
      if (top?.by !== mode.controller) out.push(`paused for ${mode.controller} but the top was played by ${top?.by}`);
      break;
    case 'RACE':
      if (top === undefined) out.push('racing on an empty pile');
      else if (cardInfo(top.card)?.kind === 'ZAP') out.push('racing on a ZAP');
      break;
    case 'ROUND_OVER':
      if ((state.handCounts[mode.winner] ?? 0) !== 0) out.push(`round winner ${mode.winner} still holds cards`);
      break;
    case 'DEALING':
    case 'START':
    case 'OPEN_START':
    case 'GAME_OVER':
      break;
  }
  if (state.stuck !== isStuck(state)) out.push(`stuck flag ${state.stuck} does not match the hands`);
  if (state.tie !== null && state.tie.contenders.length < 2) out.push('a tie with fewer than two contenders');
}

/** Descriptions of every violated invariant of `state`; empty when the state is consistent. */
export function checkInvariants(state: ZipZapState): string[] {
  const out: string[] = [];
  cardPlaces(state, out);
  handsAndCounts(state, out);
  scores(state, out);
  modes(state, out);
  return out;
}
