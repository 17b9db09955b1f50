/**
 * The one rule for what is public, for every game (design principle 2; docs/mqtt.md, "What is public"):
 * **the public view is exactly what a spectator standing at the table can see.**
 *
 * - A card laid face up on the pile (or an item on a pad the game shows) is seen.
 * - Why a refused card cannot stay is seen when it follows from the card and the public state alone (a yellow 8
 *   on a yellow 3, a red 6 on a total of 21, the loser of a tie against the winner's card).
 * - A card in a hand, a barrel's number before the reveal, and whether a named card is in someone's hand are
 *   not seen.
 *
 * The games supply the facts (which refusal codes of which action follow from public facts, which cards the
 * public state shows face up, whether a seat pad may be secret); the two functions here decide, and every
 * refusal (requests' answers, `ACTION_REFUSED`, Zip-Zap's `PLAY_REJECTED` and the view's `rejected`) and every
 * pad reading on a health topic goes through them.
 *
 * A game may only call a code public if its engine checks it **before any hidden fact**: then whether the code
 * comes out is a function of the action and the public state, whatever the hands hold. The one bit that cannot be
 * hidden is whether the engine refused at all (accepted plays change the public state).
 */
import type { Rejection } from './outcome.ts';

/** The one code a refusal that depends on hidden information is published with. */
export const HIDDEN_REASON = 'HIDDEN_REASON';

/** The sentence of a `HIDDEN_REASON` refusal (its `reason`): what a player at the table may be told. */
export const HIDDEN_REASON_TEXT = 'The reason depends on something only the players can see (a hand or a hidden barrel).';

/** What a refusal may say outside the process. */
export interface PublicRefusal {
  readonly code: string;
  /** The refusal's sentence; for a public code the engine's own (it may name the card the reason rests on). */
  readonly message: string;
  /** The catalogue's sentence for the code, for people (no ids): the dashboard shows it. */
  readonly reason: string;
  /** The card the reason rests on, when the reason is public and about the card (else null: not named). */
  readonly card: string | null;
}

/** The facts a game gives about its refusals. */
export interface RefusalRules {
  /**
   * Per action type that touches hidden facts: the codes decided by the action and the public state alone,
   * checked by the engine before any hidden fact. An action type not listed touches nothing hidden.
   */
  readonly hiddenActions: Readonly<Record<string, readonly string[]>>;
  /**
   * The public codes whose reason is the card itself against the public state (`DOES_NOT_FOLLOW`, `OVER_21`):
   * the card was laid face up (or named by the requester), and the reason cannot be said without it.
   */
  readonly cardReasons: readonly string[];
  /** The game's rejection catalogue (code → sentence). */
  readonly catalogue: Readonly<Record<string, string>>;
}

/** One refusal: the action (its `type`, and its `card` if it names one) and the engine's true rejection. */
export interface RefusalFacts {
  readonly action: unknown;
  readonly rejection: Rejection;
}

function field(action: unknown, name: string): unknown {
  return typeof action === 'object' && action !== null ? (action as Record<string, unknown>)[name] : undefined;
}

/**
 * The refusal as it may leave the process: unchanged when the action touches nothing hidden or the code is one
 * of its public gates; otherwise `HIDDEN_REASON` with a message naming only the action type. The card is named
 * only when the public reason is about the card; a card whose refusal is hidden is never named (its name with
 * a hidden refusal would say "this card is not in that hand").
 */
export function publicRefusal(rules: RefusalRules, facts: RefusalFacts): PublicRefusal {
  const { rejection } = facts;
  const type = field(facts.action, 'type');
  const gates = typeof type === 'string' && Object.hasOwn(rules.hiddenActions, type) ? rules.hiddenActions[type] : undefined;
  const reason = rules.catalogue[rejection.code] ?? rejection.code;
  if (gates === undefined) return { code: rejection.code, message: rejection.message, reason, card: null };
  if (!gates.includes(rejection.code)) {
    return {
      code: HIDDEN_REASON,
      message: `${String(type)} refused for a reason that depends on hidden information (the referee finds it in the event log)`,
      reason: HIDDEN_REASON_TEXT,
      card: null,
    };
  }
  const card = field(facts.action, 'card');
  const named = typeof card === 'string' && rules.cardReasons.includes(rejection.code) ? card : null;
  // A public code whose reason is not the card (a wrong phase, a late line) must not name it: the card may have
  // touched the pile face down (dealing) and is going back to a hand. The catalogue's sentence names nothing.
  const message = named === null && typeof card === 'string' && rejection.message.includes(card) ? reason : rejection.message;
  return { code: rejection.code, message, reason, card: named };
}

/** Where a pad lies, as the rule needs it. */
export type PadPlace = 'seat' | 'pile' | 'other';

/** The facts about one pad reading. */
export interface PadFacts {
  readonly place: PadPlace;
  /** A seat pad: whether what lies there may be secret now (the game's `padSecret`). */
  readonly seatMayBeSecret: boolean;
  /** The card id of the item read last, when it is a card (null: a chip, a barrel, an unknown tag, nothing). */
  readonly card: string | null;
  /** The cards the public state shows face up on the pile (the game's `faceUp`). */
  readonly faceUp: ReadonlySet<string>;
}

/**
 * Whether a pad's live reading may be published. A seat pad is withheld while the game says it may hold a
 * secret. On the pile a card is named only while the public state holds it there: the reader reads a tag
 * through the card's back, so a reading is no sighting — a card dealt across the pile, or laid there and
 * refused for a hidden reason, goes back to a hand unnamed; a card refused for a public reason is named by the
 * refusal, not by the pile's reading.
 */
export function padReadingIsPublic(facts: PadFacts): boolean {
  switch (facts.place) {
    case 'seat': return !facts.seatMayBeSecret;
    case 'pile': return facts.card === null || facts.faceUp.has(facts.card);
    case 'other': return true;
  }
}
