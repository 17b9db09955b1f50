/**
 * Refusals in words a player understands: one sentence per code, the table's own codes here and each game's in
 * `games/<id>/refusals.ts` (its `GameUi.refusals`, which win where a game means something of its own). Every
 * page that shows a refusal — a request's answer, the simulator's verdict, a refused play in the events or in
 * the Zip-Zap list — words it here, so a code reads the same everywhere. Pure (no DOM): the unit test checks
 * that every code in docs/rules-engine.md has its sentence.
 *
 * The controller's message is shown only for the codes whose message carries a public detail the sentence
 * cannot (whose pad, how many cards); otherwise it may be the engine's wording (ids, controller milliseconds).
 * `HIDDEN_REASON` is said as hidden, never with the controller's text (which used to send the referee to an
 * event log that no page shows).
 */

export type RefusalSentences = Readonly<Record<string, string>>;

/** The codes that mean the same at every table, and the dashboard's and transport's own. */
export const TABLE_REFUSALS: RefusalSentences = {
  HIDDEN_REASON: 'the reason is hidden: it depends on something only the table knows',
  BAD_CONFIG: 'the game settings are not valid',
  BAD_SETUP: 'the scenario\'s starting position is not consistent',
  BAD_ACTION: 'the table did not understand that action',
  UNKNOWN_FIELD: 'the action carried a detail the table does not know',
  NOT_A_PLAYER: 'nobody of that name plays at this table',
  UNKNOWN_PLAYER: 'nobody of that name plays at this table',
  CARD_NOT_IN_HAND: 'that card is not in the player\'s hand',
  GAME_OVER: 'the game is over: nothing more can be played',
  ROUND_OVER: 'the round is over: nothing is played until the next round',
  ROUND_NOT_OVER: 'the round is still being played',
  WRONG_PHASE: 'that is not possible at this point of the game',
  // The request layer's and the simulator's own answers (docs/mqtt.md).
  UNAUTHORIZED: 'the referee token is missing or wrong',
  RATE_LIMITED: 'too many requests at once: wait a moment and try again',
  NOT_AVAILABLE: 'this table does not offer that',
  NOT_SEEN: 'the table did not read it',
  TIMEOUT: 'the table did not answer in time',
  NO_GAME: 'no game is running at this table',
};

/** Codes whose controller message adds a public detail to the sentence (counts, a list of problems). */
const DETAILED = new Set(['BAD_CONFIG', 'BAD_SETUP', 'WRONG_COUNT', 'NOT_SEEN', 'RATE_LIMITED', 'WRONG_DESTINATION']);
/** Codes whose controller message says it all in players' words (whose pads still hold a barrel). */
const SAID_IN_FULL = new Set(['PADS_NOT_CLEAR']);

/** The sentence for a code: the game's own, else the table's, else undefined. */
export function refusalSentence(code: string, game: RefusalSentences = {}): string | undefined {
  return game[code] ?? TABLE_REFUSALS[code];
}

/**
 * A refusal as a player reads it: the sentence for its code, with the controller's message where it carries a
 * detail (or where the code has no sentence: the message is all there is), never the text of a hidden one.
 */
export function refusalText(code: string, message?: string, game: RefusalSentences = {}): string {
  const sentence = refusalSentence(code, game);
  const said = message === undefined || message === '' || code === 'HIDDEN_REASON' ? undefined : message;
  if (sentence === undefined || (said !== undefined && SAID_IN_FULL.has(code))) return said ?? sentence ?? code.toLowerCase().replaceAll('_', ' ');
  return said !== undefined && DETAILED.has(code) && said !== sentence ? `${sentence} (${said})` : sentence;
}

/**
 * "Bo's card was refused: …" — or, for a hidden reason, "Bo's card was refused (the reason is hidden: …)": what
 * was refused, then why (`subject` names it, e.g. "Bo's card", "A play").
 */
export function refusedSentence(subject: string, code: string, message?: string, game: RefusalSentences = {}): string {
  const why = refusalText(code, message, game);
  return code === 'HIDDEN_REASON' ? `${subject} was refused (${why})` : `${subject} was refused: ${why}`;
}
