/**
 * `fromScenario`: a state built from a compact mid-round description (docs/rules-engine.md, Killer-21,
 * "Scenario setup"). Card entries are ids (`R5-2`) or kinds (`R5`, `KILLER`); a kind takes the lowest copy no
 * other entry names. Cards the description does not place still get exactly one place (under the listed deck,
 * or with `rest: "PILE"` under the pile), so the card-place invariant holds. Every problem is reported at once
 * as `BAD_SETUP`.
 */
import { isObj, type Obj } from '../common/json-guards.ts';
import { applied, type Outcome } from '../common/outcome.ts';
import { seedRng } from '../../kernel/random.ts';
import { allCards, CARD_KINDS, copiesOf, inDeck, type CardKind } from './cards.ts';
import { resolveConfig, type Killer21Config } from './config.ts';
import type { Killer21Event } from './events.ts';
import { checkInvariants } from './invariants.ts';
import { LIMIT } from './playable.ts';
import { refuse, type K21RejectionCode } from './rejections.ts';
import { newGame } from './rounds.ts';
import { nextActive } from './seats.ts';
import type { Direction, HiddenCards, Killer21State, Phase, PileRecord } from './state.ts';

type Result = Outcome<Killer21State, Killer21Event, K21RejectionCode>;

const KEYS = new Set([
  'players', 'config', 'seed', 'lives', 'hands', 'pile', 'deck', 'rest', 'total', 'turn', 'dealer', 'direction', 'round',
  'unseen', 'phase', 'deal',
]);

/** With `deal: "FRESH"` only these keys may be given: everything else comes from the deal itself. */
const FRESH_KEYS = new Set(['players', 'config', 'seed', 'dealer', 'deal']);

/** Resolves card entries: explicit ids first (so kinds never take them), then kinds in order of appearance. */
class CardResolver {
  private readonly used = new Set<string>();
  private readonly kinds: { where: string; kind: CardKind; set: (id: string) => void }[] = [];

  constructor(private readonly config: Killer21Config, private readonly errors: string[]) {}

  /** Registers one entry; `set` receives the resolved id once `resolve` runs. */
  add(entry: unknown, where: string, set: (id: string) => void): void {
    if (typeof entry !== 'string') {
      this.errors.push(`${where}: a card id or kind (a string)`);
      return;
    }
    if ((CARD_KINDS as readonly string[]).includes(entry)) {
      this.kinds.push({ where, kind: entry as CardKind, set });
      return;
    }
    if (!inDeck(this.config.deck, entry)) {
      this.errors.push(`${where}: ${entry} is not a card of this deck`);
      return;
    }
    if (this.used.has(entry)) this.errors.push(`${where}: ${entry} is placed twice`);
    this.used.add(entry);
    set(entry);
  }

  resolve(): void {
    for (const { where, kind, set } of this.kinds) {
      let id: string | null = null;
      for (let k = 1; k <= copiesOf(this.config.deck, kind); k++) {
        if (!this.used.has(`${kind}-${k}`)) {
          id = `${kind}-${k}`;
          break;
        }
      }
      if (id === null) {
        this.errors.push(`${where}: no copy of ${kind} is left`);
        continue;
      }
      this.used.add(id);
      set(id);
    }
  }

  unplaced(): string[] {
    return allCards(this.config.deck).filter((c) => !this.used.has(c));
  }
}

function configOf(raw: Obj, errors: string[]): Killer21Config | null {
  const extra = raw.config ?? {};
  if (!isObj(extra)) {
    errors.push('config: must be an object');
    return null;
  }
  if ('players' in extra) errors.push('config.players: give players at the top level');
  const dealer = raw.dealer === undefined ? {} : { dealer: raw.dealer };
  const config = resolveConfig({ ...extra, ...dealer, players: raw.players });
  if ('errors' in config) {
    errors.push(...config.errors);
    return null;
  }
  return config;
}

function livesOf(raw: Obj, config: Killer21Config, errors: string[]): Record<string, number> {
  const lives: Record<string, number> = {};
  for (const p of config.players) lives[p] = config.lives;
  if (raw.lives === undefined) return lives;
  if (!isObj(raw.lives)) {
    errors.push('lives: an object of player → lives');
    return lives;
  }
  for (const [p, n] of Object.entries(raw.lives)) {
    if (!config.players.includes(p)) errors.push(`lives.${p}: not a player`);
    else if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > config.lives) errors.push(`lives.${p}: 0..${config.lives}`);
    else lives[p] = n;
  }
  return lives;
}

function pileEntry(
  entry: unknown, where: string, config: Killer21Config, errors: string[],
): { card: unknown; by: string | null } {
  if (!isObj(entry)) return { card: entry, by: null };
  const by = entry.by ?? null;
  if (by !== null && !(typeof by === 'string' && config.players.includes(by))) errors.push(`${where}.by: a player id or null`);
  for (const k of Object.keys(entry)) if (k !== 'card' && k !== 'by') errors.push(`${where}.${k}: unknown key`);
  return { card: entry.card, by: typeof by === 'string' ? by : null };
}

function directionOf(raw: unknown, errors: string[]): Direction {
  if (raw === undefined || raw === 'CLOCKWISE' || raw === 1) return 1;
  if (raw === 'COUNTERCLOCKWISE' || raw === -1) return -1;
  errors.push('direction: "CLOCKWISE" or "COUNTERCLOCKWISE"');
  return 1;
}

function intIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/**
 * `dealing: TABLE` (C-K.3): `unseen` gives how many cards each player holds that the table has not seen; every
 * card the description does not place is unseen, and what the hands do not hold of them is the deck.
 */
function hiddenOf(
  raw: Obj, config: Killer21Config, lives: Record<string, number>, unplaced: string[], errors: string[],
): HiddenCards | null {
  if (config.dealing !== 'TABLE') {
    if (raw.unseen !== undefined) errors.push('unseen: only with config.dealing "TABLE"');
    return null;
  }
  if (raw.deck !== undefined) errors.push('deck: a table-dealt game has no known deck (the cards not placed are unseen)');
  if (raw.rest !== undefined) errors.push('rest: a table-dealt game puts the cards not placed among the unseen ones');
  const inHand: Record<string, number> = {};
  for (const p of config.players) inHand[p] = 0;
  if (raw.unseen !== undefined && !isObj(raw.unseen)) errors.push('unseen: an object of player → count');
  for (const [p, n] of Object.entries(isObj(raw.unseen) ? raw.unseen : {})) {
    if (!config.players.includes(p)) errors.push(`unseen.${p}: not a player`);
    else if (!intIn(n, 0, 999)) errors.push(`unseen.${p}: a whole number of cards`);
    else if (n > 0 && lives[p] === 0) errors.push(`unseen.${p}: ${p} is out and holds no cards`);
    else inHand[p] = n;
  }
  const held = Object.values(inHand).reduce((a, b) => a + b, 0);
  if (held > unplaced.length) errors.push(`unseen: the hands hold ${held} unseen cards but only ${unplaced.length} cards are not placed`);
  return { cards: unplaced, inHand, deck: Math.max(0, unplaced.length - held) };
}

function phaseOf(raw: Obj, config: Killer21Config, errors: string[]): Phase {
  if (raw.phase === undefined || raw.phase === 'TURN') return 'TURN';
  if (raw.phase === 'DEALING' && config.dealing === 'TABLE') return 'DEALING';
  errors.push('phase: "TURN", or "DEALING" with config.dealing "TABLE"');
  return 'TURN';
}

function build(raw: Obj, errors: string[]): Killer21State | null {
  for (const k of Object.keys(raw)) if (!KEYS.has(k)) errors.push(`${k}: unknown key`);
  const config = configOf(raw, errors);
  if (config === null) return null;
  const lives = livesOf(raw, config, errors);
  const cards = new CardResolver(config, errors);
  const hands: Record<string, string[]> = {};
  for (const p of config.players) hands[p] = [];
  if (raw.hands !== undefined && !isObj(raw.hands)) errors.push('hands: an object of player → cards');
  for (const [p, list] of Object.entries(isObj(raw.hands) ? raw.hands : {})) {
    if (!config.players.includes(p)) errors.push(`hands.${p}: not a player`);
    else if (!Array.isArray(list)) errors.push(`hands.${p}: a list of cards`);
    else {
      const hand = hands[p] as string[];
      list.forEach((c, i) => {
        // A slot per entry keeps the listed order although kinds are resolved after explicit ids.
        hand.push('');
        cards.add(c, `hands.${p}.${i}`, (id) => {
          hand[i] = id;
        });
      });
    }
  }
  const pile: PileRecord[] = [];
  const rawPile = raw.pile ?? [];
  if (!Array.isArray(rawPile)) errors.push('pile: a list of cards, bottom first');
  else {
    rawPile.forEach((e, i) => {
      const { card, by } = pileEntry(e, `pile.${i}`, config, errors);
      const slot = pile.length;
      pile.push({ card: '', by, kind: 'PLAY' });
      cards.add(card, `pile.${i}`, (id) => {
        pile[slot] = { ...(pile[slot] as PileRecord), card: id };
      });
    });
  }
  const deck: string[] = [];
  const rawDeck = raw.deck ?? [];
  if (!Array.isArray(rawDeck)) errors.push('deck: a list of cards, top first');
  else {
    rawDeck.forEach((c, i) => {
      deck.push('');
      cards.add(c, `deck.${i}`, (id) => {
        deck[i] = id;
      });
    });
  }
  cards.resolve();
  for (const p of config.players) hands[p] = (hands[p] ?? []).filter((c) => c !== '');
  const listedDeck = deck.filter((c) => c !== '');
  const rest = raw.rest ?? 'DECK';
  if (rest !== 'DECK' && rest !== 'PILE') errors.push('rest: "DECK" or "PILE"');
  const unplaced = cards.unplaced();
  const fullPile: PileRecord[] = rest === 'PILE'
    ? [...unplaced.map((card): PileRecord => ({ card, by: null, kind: 'PLAY' })), ...pile.filter((r) => r.card !== '')]
    : pile.filter((r) => r.card !== '');
  const hidden = hiddenOf(raw, config, lives, unplaced, errors);
  const phase = phaseOf(raw, config, errors);
  const fullDeck = hidden !== null || rest === 'PILE' ? listedDeck : [...listedDeck, ...unplaced];
  const count = (p: string): number => (hands[p]?.length ?? 0) + (hidden?.inHand[p] ?? 0);
  const total = raw.total ?? 0;
  if (!intIn(total, 0, LIMIT)) errors.push(`total: a whole number 0..${LIMIT}`);
  const round = raw.round ?? 1;
  if (!intIn(round, 1, 1_000_000)) errors.push('round: a whole number ≥ 1');
  const seed = raw.seed ?? 1;
  if (typeof seed !== 'number' && typeof seed !== 'string') errors.push('seed: a number or a string');
  const direction = directionOf(raw.direction, errors);
  const out = config.players.filter((p) => lives[p] === 0);
  if (config.variant === 'BLITZ' && out.length > 0) errors.push('lives: in Blitz a player at 0 lives has ended the game');
  if (config.players.length - out.length < 2) errors.push('lives: at least two players need lives');
  for (const p of config.players) {
    const n = count(p);
    if (lives[p] === 0 && n > 0) errors.push(`hands.${p}: ${p} is out and holds no cards`);
    if ((lives[p] ?? 0) > 0 && n === 0) {
      errors.push(`hands.${p}: ${p} has lives but no hand is listed (a player still in holds cards mid-round; to start from a fresh deal, give "deal": "FRESH")`);
    }
  }
  const dealer = config.dealer ?? (config.players[config.players.length - 1] as string);
  const turn = raw.turn ?? (errors.length === 0 ? nextActive({ players: config.players, lives }, dealer, 1, 1) : null);
  if (typeof turn !== 'string' || !config.players.includes(turn) || lives[turn] === 0) errors.push('turn: a player with lives');
  if (errors.length > 0) return null;
  return {
    game: 'killer-21', config, players: config.players, rng: seedRng(seed as number | string), round: round as number,
    dealer, turn: turn as string, direction, total: total as number, phase, lives, hands, deck: fullDeck, pile: fullPile,
    killer: null, roundWinners: [], out, winners: [], losses: [], reshuffles: 0, hidden, scoring: null,
  };
}

/**
 * `deal: "FRESH"`: the state right after the engine's own deal for these players, configuration and seed —
 * exactly what `setup` gives, so a scenario can start at a game's first turn (or, dealt at the table, in DEALING).
 */
function freshDeal(raw: Obj): Result {
  const errors = Object.keys(raw).filter((k) => !FRESH_KEYS.has(k)).map((k) => `${k}: not with "deal": "FRESH" (the deal decides it)`);
  const config = configOf(raw, errors);
  const seed = raw.seed ?? 1;
  if (typeof seed !== 'number' && typeof seed !== 'string') errors.push('seed: a number or a string');
  if (config === null || errors.length > 0) return refuse('BAD_SETUP', errors.join('; '));
  const { state, events } = newGame(config, seed as number | string);
  return applied(state, events);
}

/** Builds a state from a scenario description (see the module comment). */
export function fromScenario(setup: unknown): Result {
  if (!isObj(setup)) return refuse('BAD_SETUP', 'a scenario setup must be an object');
  if (setup.deal !== undefined) {
    return setup.deal === 'FRESH' ? freshDeal(setup) : refuse('BAD_SETUP', 'deal: "FRESH" (or leave it out for a mid-round description)');
  }
  const errors: string[] = [];
  const state = build(setup, errors);
  if (state === null) return refuse('BAD_SETUP', errors.join('; '));
  const broken = checkInvariants(state);
  if (broken.length > 0) return refuse('BAD_SETUP', broken.join('; '));
  return applied(state, []);
}
