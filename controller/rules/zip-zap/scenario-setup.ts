/**
 * `fromScenario`: a state built from a compact mid-game description (docs/rules-engine.md (Zip-Zap),
 * "Scenario setup"). Cards that the description does not place still get exactly one place, so the
 * card-place invariant holds: unmentioned cards of suits in play go to the reserve, or, when the reserve is
 * given, under the pile as cards played earlier; a ZAP that is in no hand and not on the pile was used earlier
 * this round and goes under the pile too.
 */
import { applied, type Outcome } from '../common/outcome.ts';
import { cardInfo, numberCards, SOLID_SUITS, type SolidSuit } from './cards.ts';
import { dealCount, removedSuitCount, resolveConfig, type ZipZapConfig } from './config.ts';
import type { ZipZapEvent } from './events.ts';
import { isStuck } from './follows.ts';
import { oracleActive } from './pauses.ts';
import { refuse, type ZipRejectionCode } from './rejections.ts';
import { endRound } from './scoring.ts';
import { canonical, dealEngine, dealTable, initialState } from './setup.ts';
import type { Mode, PlayKind, PlayRecord, ZipZapState } from './state.ts';
import { isObj, type Obj } from '../common/json-guards.ts';
import { parseMode, parsePlayRecord, SetupError } from './scenario-parse.ts';

type Result = Outcome<ZipZapState, ZipZapEvent, ZipRejectionCode>;

function fail(message: string): never {
  throw new SetupError(message);
}

function configOf(raw: Obj): ZipZapConfig {
  const extra = raw.config === undefined ? {} : raw.config;
  if (!isObj(extra)) fail('config: must be an object');
  if ('players' in extra) fail('config.players: give players at the top level');
  const removed = raw.removedSuits === undefined ? {} : { removedSuits: raw.removedSuits };
  const config = resolveConfig({ ...extra, ...removed, players: raw.players });
  if ('errors' in config) fail(config.errors.join('; '));
  return config;
}

/** Resolves `Z(A)` to A's ZAP id and checks every id. */
function cardId(state: ZipZapState, text: unknown, where: string): string {
  if (typeof text !== 'string') fail(`${where}: card ids are strings`);
  const m = /^Z\((.+)\)$/.exec(text);
  if (m !== null) {
    const zap = state.zapOf[m[1] as string];
    if (zap === undefined) fail(`${where}: ${text} names no player`);
    return zap;
  }
  if (cardInfo(text) === undefined) fail(`${where}: unknown card ${text}`);
  if (state.outOfPlay.includes(text)) fail(`${where}: ${text} is out of play (removed suit or absent seat's ZAP)`);
  return text;
}

/** Suits to remove when the setup does not say: solid suits no card mentions, GREEN first (deterministic). */
function inferRemoved(raw: Obj, players: number): SolidSuit[] {
  const mentioned = new Set<string>();
  const text = JSON.stringify([raw.hands, raw.top, raw.pile, raw.reserve]);
  for (const m of text.matchAll(/"([RBYGW])\d+"|"card":"([RBYGW])\d+"/g)) mentioned.add(m[1] ?? m[2] ?? '');
  const free = [...SOLID_SUITS].reverse().filter((s) => !mentioned.has(s[0] as string));
  const want = removedSuitCount(players);
  if (free.length < want) fail(`removedSuits: ${players} players remove ${want} solid suit(s), but the cards mention more suits`);
  return free.slice(0, want);
}

function place(state: ZipZapState, raw: Obj): ZipZapState {
  if (!isObj(raw.hands)) fail('hands: required, an object of player → list of cards');
  const used = new Set<string>();
  const take = (id: string, where: string): string => {
    if (used.has(id)) fail(`${where}: ${id} is placed twice`);
    used.add(id);
    return id;
  };
  const hands: Record<string, string[]> = {};
  const max = dealCount(state.players.length) + 1;
  for (const p of state.players) {
    const list = raw.hands[p];
    if (!Array.isArray(list)) fail(`hands.${p}: required, a list of cards`);
    if (list.length > max) fail(`hands.${p}: at most ${max} cards with ${state.players.length} players`);
    hands[p] = list.map((c: unknown, i) => take(cardId(state, c, `hands.${p}.${i}`), `hands.${p}`));
    const zaps = (hands[p] ?? []).filter((c) => cardInfo(c)?.kind === 'ZAP');
    if (zaps.some((z) => z !== state.zapOf[p])) fail(`hands.${p}: holds another player's ZAP`);
  }
  for (const key of Object.keys(raw.hands)) if (!state.players.includes(key)) fail(`hands.${key}: not a player`);
  const record = (v: unknown, where: string, kind: PlayKind): PlayRecord => {
    const r = parsePlayRecord(v, where, state.players, kind);
    return { ...r, card: take(cardId(state, r.card, where), where) };
  };
  const under = raw.pile === undefined ? [] : Array.isArray(raw.pile) ? raw.pile.map((v, i) => record(v, `pile.${i}`, 'EARLIER')) : fail('pile: a list');
  const top = raw.top === undefined ? [] : [record(raw.top, 'top', 'FOLLOW')];
  const reserve = raw.reserve === undefined ? null
    : Array.isArray(raw.reserve) ? raw.reserve.map((c, i) => take(cardId(state, c, `reserve.${i}`), 'reserve')) : fail('reserve: a list');
  const rest = canonical(numberCards(state.suits).filter((c) => !used.has(c)));
  const spentZaps: PlayRecord[] = state.players.filter((p) => !used.has(state.zapOf[p] as string))
    .map((p) => ({ card: state.zapOf[p] as string, by: p, kind: 'ZAP' }));
  const earlier: PlayRecord[] = reserve === null ? [] : rest.map((card) => ({ card, by: null, kind: 'EARLIER' }));
  const finalReserve = reserve ?? rest;
  const handCounts: Record<string, number> = {};
  const handKnown: Record<string, boolean> = {};
  for (const p of state.players) {
    handCounts[p] = hands[p]?.length ?? 0;
    handKnown[p] = true;
  }
  return {
    ...state, hands, handCounts, handKnown, reserve: finalReserve, reserveCount: finalReserve.length, unseen: [],
    pile: [...spentZaps, ...earlier, ...under, ...top],
  };
}

function scoresOf(state: ZipZapState, raw: Obj): ZipZapState {
  if (raw.roundScores === undefined && raw.roundWinners === undefined) return state;
  const scores = raw.roundScores;
  const winners = raw.roundWinners;
  if (!Array.isArray(scores) || !Array.isArray(winners) || scores.length !== winners.length) {
    fail('roundScores and roundWinners: two lists of the same length');
  }
  const roundScores = scores.map((r, i) => {
    if (!isObj(r) || !state.players.every((p) => Number.isInteger(r[p]))) fail(`roundScores.${i}: a whole number per player`);
    return r as Record<string, number>;
  });
  if (!winners.every((w) => state.players.includes(w as string))) fail('roundWinners: player ids');
  if (roundScores.length >= state.roundsTotal) fail(`roundScores: the game has only ${state.roundsTotal} rounds`);
  const totals: Record<string, number> = {};
  for (const p of state.players) totals[p] = roundScores.reduce((a, r) => a + (r[p] ?? 0), 0);
  return { ...state, roundScores, roundWinners: winners as string[], totals, round: roundScores.length + 1 };
}

function checkMode(state: ZipZapState, mode: Mode): void {
  const top = state.pile[state.pile.length - 1];
  if (mode.kind === 'PAUSED' && (top === undefined || top.by !== mode.controller)) fail('mode: a pause is controlled by whoever played the top card');
  if (mode.kind === 'PAUSED' && mode.cause === 'ZAP' && cardInfo(top?.card ?? '')?.kind !== 'ZAP') fail('mode: a ZAP pause needs a ZAP on top');
  const zapOnTop = top !== undefined && cardInfo(top.card)?.kind === 'ZAP';
  if (zapOnTop && mode.kind !== 'PAUSED' && mode.kind !== 'ROUND_OVER') fail('mode: a ZAP on top means a ZAP pause (ZIP-31)');
  if ((mode.kind === 'RACE' || mode.kind === 'PAUSED') && top === undefined) fail('top: required in RACE and PAUSED');
  if (mode.kind === 'ROUND_OVER' && (state.handCounts[mode.winner] ?? 0) !== 0) fail('mode: the round winner must hold no cards');
}

function build(raw: unknown): { state: ZipZapState; events: ZipZapEvent[] } {
  if (!isObj(raw)) fail('setup: must be an object');
  const players = raw.players;
  if (!Array.isArray(players)) fail('players: required, a list of player ids');
  const withRemoved = raw.removedSuits === undefined && raw.deal !== true
    ? { ...raw, removedSuits: inferRemoved(raw, players.length) }
    : raw;
  const config = configOf(withRemoved);
  const seed = typeof raw.seed === 'number' || typeof raw.seed === 'string' ? raw.seed : 'scenario';
  let state = scoresOf(initialState(config, seed), raw);
  if (typeof raw.round === 'number') {
    if (!Number.isInteger(raw.round) || raw.round < state.roundScores.length + 1 || raw.round > state.roundsTotal) fail('round: out of range');
    state = { ...state, round: raw.round };
  }
  const events: ZipZapEvent[] = [];
  // `deal: true`: a fresh deal from the seed, stopped before the start flip (ENGINE) or in DEALING (TABLE).
  if (raw.deal === true) return { state: config.dealing === 'ENGINE' ? dealEngine(state, events) : dealTable(state, events), events };
  state = place(state, raw);
  const mode = raw.mode === undefined ? (state.pile.length === 0 ? { kind: 'START' as const } : { kind: 'RACE' as const }) : parseMode(raw.mode, state.players);
  checkMode(state, mode);
  // The scenario starts after a play at `lastAt`: it can no longer be taken back (late-plays.ts).
  if (typeof raw.lastAt === 'number') state = { ...state, lastAt: raw.lastAt, settled: { at: raw.lastAt } };
  if (mode.kind === 'ROUND_OVER') return { state: endRound({ ...state, mode: { kind: 'RACE' } }, mode.winner, events), events };
  state = { ...state, mode };
  const stuck = isStuck(state);
  const top = state.pile[state.pile.length - 1];
  if (stuck && oracleActive(state) && top !== undefined && top.by !== null) events.push({ type: 'STUCK_DETECTED', top: top.card, controller: top.by });
  return { state: { ...state, stuck }, events };
}

/** Builds a state from a scenario setup, or rejects with BAD_SETUP and the first problem found. */
export function fromScenario(setup: unknown): Result {
  try {
    const { state, events } = build(setup);
    return applied(state, events);
  } catch (error) {
    if (error instanceof SetupError) return refuse('BAD_SETUP', error.message);
    throw error;
  }
}
