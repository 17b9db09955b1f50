/**
 * Engine configuration (docs/rules/killer-21.md §15): options, defaults and validation. Every option that
 * resolves an ambiguity (K21-Q-n) defaults to the spec's resolution; the alternatives are the other values.
 */
import { isObj, type Obj } from '../common/json-guards.ts';
import { allCards, BLUE_KINDS, DEFAULT_DECK, type DeckComposition } from './cards.ts';

/** Who a card that hits "players" hits: everyone still in, the card's player included, or only the others. */
export type Hits = 'EVERYONE' | 'OTHERS';
/** Who plays after a bust (K21-43, K21-Q-5). */
export type AfterBust = 'NEXT_PLAYER' | 'SAME_PLAYER';
/** Who wins when every remaining player loses their last life at once (K21-72, K21-Q-15). */
export type AllOutPolicy = 'SHARED' | 'HAND_POINTS';
/** Who deals: the engine (it knows every card) or the people at the table with a real deck (C-K.3). */
export type Dealing = 'ENGINE' | 'TABLE';
/** The standard game, or the Blitz game of the seed (K21-80). */
export type Variant = 'STANDARD' | 'BLITZ';

/** A fully resolved configuration, stored in the game state. */
export interface Killer21Config {
  /** Player ids in seat order, which is clockwise: 2–7, unique, non-empty (K21-1, K21-6). */
  readonly players: readonly string[];
  /** Lives (chips) each player starts with. Default 5 (K21-3). */
  readonly lives: number;
  /** Cards dealt to each player every round. Default 10 (K21-4). */
  readonly handSize: number;
  /** Copies of every card kind; a partial object is merged over the default (K21-2, K21-Q-1). */
  readonly deck: DeckComposition;
  /** The dealer of the first round; null = the last seat, so that the first seat plays first (K21-6, K21-Q-19). */
  readonly dealer: string | null;
  /** How long after the Killer lands a red 0 still counts, in ms (K21-32, K21-Q-9). Default 3000. */
  readonly killerWindowMs: number;
  /** Who must answer the Killer (K21-31, K21-Q-8). Default `EVERYONE`. */
  readonly killerHits: Hits;
  /** Who loses a life to the Life card (K21-26, K21-Q-7). Default `EVERYONE`. */
  readonly lifeHits: Hits;
  /** Who plays after a bust (K21-43). Default `NEXT_PLAYER`. */
  readonly afterBust: AfterBust;
  /** Accept "I can't" from a player who could play (K21-41, K21-Q-6). Default false. */
  readonly allowVoluntaryBust: boolean;
  /** Bust a player the moment their turn starts with no playable card, without waiting for the button (K21-41). */
  readonly autoBust: boolean;
  /** K21-72. Default `SHARED`. */
  readonly allOutPolicy: AllOutPolicy;
  /** K21-80. Default `STANDARD`. */
  readonly variant: Variant;
  /**
   * Who deals (C-K.3, K21-90..97). `ENGINE` (default): the engine shuffles and deals, so it knows every hand
   * (simulated tables, bots, dashboard play). `TABLE`: people deal a real deck; the engine knows only counts and
   * the cards it has seen, until a hand is registered.
   */
  readonly dealing: Dealing;
}

/** Defaults for everything but `players`. */
export const DEFAULT_CONFIG: Omit<Killer21Config, 'players'> = {
  lives: 5,
  handSize: 10,
  deck: DEFAULT_DECK,
  dealer: null,
  killerWindowMs: 3000,
  killerHits: 'EVERYONE',
  lifeHits: 'EVERYONE',
  afterBust: 'NEXT_PLAYER',
  allowVoluntaryBust: false,
  autoBust: false,
  allOutPolicy: 'SHARED',
  variant: 'STANDARD',
  dealing: 'ENGINE',
};

function isCount(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

function oneOf(value: unknown, options: readonly string[]): boolean {
  return typeof value === 'string' && options.includes(value);
}

function checkPlayers(players: unknown, errors: string[]): void {
  if (!Array.isArray(players)) {
    errors.push('players: required, a list of 2–7 player ids');
    return;
  }
  if (players.length < 2 || players.length > 7) errors.push(`players: 2–7 players (K21-1), got ${players.length}`);
  if (!players.every((p) => typeof p === 'string' && p !== '')) errors.push('players: every id must be a non-empty string');
  if (new Set(players).size !== players.length) errors.push('players: ids must be unique');
}

function resolveDeck(raw: unknown, errors: string[]): DeckComposition {
  if (raw === undefined) return DEFAULT_DECK;
  if (!isObj(raw)) {
    errors.push('deck: must be an object of card kind → copies');
    return DEFAULT_DECK;
  }
  const deck = { ...DEFAULT_DECK, ...raw } as Obj;
  for (const key of Object.keys(raw)) {
    if (key !== 'red' && !(BLUE_KINDS as readonly string[]).includes(key)) errors.push(`deck.${key}: unknown card kind`);
  }
  const red = deck.red;
  if (!Array.isArray(red) || red.length !== 8 || !red.every((n) => isCount(n, 999))) {
    errors.push('deck.red: eight whole numbers 0..999, the copies of red 0..7');
  }
  for (const kind of BLUE_KINDS) if (!isCount(deck[kind], 999)) errors.push(`deck.${kind}: a whole number 0..999`);
  return deck as unknown as DeckComposition;
}

const KNOWN_KEYS = new Set(['players', ...Object.keys(DEFAULT_CONFIG)]);

/**
 * Validates a partial configuration and fills in the defaults. Reports every problem at once (design
 * principle 9); returns the list of problems instead of a config when there is any.
 */
export function resolveConfig(raw: unknown): Killer21Config | { readonly errors: readonly string[] } {
  if (!isObj(raw)) return { errors: ['config: must be an object'] };
  const errors: string[] = [];
  for (const key of Object.keys(raw)) if (!KNOWN_KEYS.has(key)) errors.push(`${key}: unknown option`);
  checkPlayers(raw.players, errors);
  const deck = resolveDeck(raw.deck, errors);
  const c = { ...DEFAULT_CONFIG, ...raw, deck } as Obj;
  if (!(isCount(c.lives, 99) && c.lives >= 1)) errors.push('lives: a whole number 1..99');
  if (!(isCount(c.handSize, 99) && c.handSize >= 1)) errors.push('handSize: a whole number 1..99');
  if (!isCount(c.killerWindowMs, 600_000)) errors.push('killerWindowMs: a whole number of ms, 0..600000');
  const enums: [string, readonly string[]][] = [
    ['killerHits', ['EVERYONE', 'OTHERS']],
    ['lifeHits', ['EVERYONE', 'OTHERS']],
    ['afterBust', ['NEXT_PLAYER', 'SAME_PLAYER']],
    ['allOutPolicy', ['SHARED', 'HAND_POINTS']],
    ['variant', ['STANDARD', 'BLITZ']],
    ['dealing', ['ENGINE', 'TABLE']],
  ];
  for (const [key, options] of enums) if (!oneOf(c[key], options)) errors.push(`${key}: one of ${options.join(', ')}`);
  for (const key of ['allowVoluntaryBust', 'autoBust']) if (typeof c[key] !== 'boolean') errors.push(`${key}: true or false`);
  const players = Array.isArray(raw.players) ? raw.players as unknown[] : [];
  if (c.dealer !== null && !players.includes(c.dealer)) errors.push('dealer: null or one of the players');
  if (errors.length === 0) {
    const cards = allCards(deck).length;
    const needed = (c.handSize as number) * players.length;
    if (cards < needed) errors.push(`deck: ${cards} cards cannot deal ${c.handSize as number} to each of ${players.length} players (K21-4)`);
  }
  if (errors.length > 0) return { errors };
  return c as unknown as Killer21Config;
}
