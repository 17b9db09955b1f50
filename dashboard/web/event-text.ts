/**
 * Public events as lines for people: the sentences every game page shares (a game's own wording, its GameUi's
 * `describeEvent`, falls back to them), players by name, refusals in words (refusal-text.ts). Pure (no DOM), so
 * a unit test reads the lines the pages show.
 */
import { pieceLabel } from './piece-labels.ts';
import { refusedSentence, type RefusalSentences } from './refusal-text.ts';
import type { PublicEventJson } from './types.ts';

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));

/**
 * A public event as a line for people; `nameOf` gives the players' configured names, `refusals` the game's
 * sentences for its refusal codes (refusal-text.ts).
 */
export function describeEvent(
  e: PublicEventJson, nameOf: (id: string) => string = (id) => id, refusals?: RefusalSentences,
): string {
  const who = (v: unknown): string => nameOf(str(v));
  const keys = ['player', 'by', 'controller', 'winner', 'first'].filter((k) => typeof e[k] === 'string');
  return describeNamed({ ...e, ...Object.fromEntries(keys.map((k) => [k, who(e[k])])) }, refusals);
}

/** A refusal's line: whose (when the event says), what, and why in words. */
function refusedLine(e: PublicEventJson, refusals: RefusalSentences | undefined, what: string): string {
  const subject = `${typeof e.player === 'string' ? `${e.player}'s` : 'A'} ${what}`;
  return refusedSentence(subject, str(e.code), typeof e.message === 'string' ? e.message : undefined, refusals);
}

function describeNamed(e: PublicEventJson, refusals?: RefusalSentences): string {
  switch (e.type) {
    case 'NEW_GAME': return `New game: ${str(e.game)}`;
    case 'GAME_STARTED': return 'Game started';
    case 'DICE_ROLLED': return `${str(e.by)} rolled ${str(e.d1)} + ${str(e.d2)}: magic number ${str(e.magic)}`;
    case 'BARREL_PLACED': return `${str(e.player)} placed a barrel`;
    case 'BARREL_PICKED_UP': return `${str(e.player)} picked up a barrel`;
    case 'BARREL_PUT_BACK': return `${str(e.player)} put a barrel back`;
    case 'BARRELS_REVEALED': return `Reveal! Magic number ${str(e.magic)}`;
    case 'BARREL_RETURNED': return `${str(e.player)}'s barrel ${str(e.barrel)} went back (${str(e.reason).toLowerCase()})`;
    case 'MOVER_CALLED': return `${str(e.player)} moves ${str(e.steps)}`;
    case 'PIECE_MOVED': return `${str(e.player)} moved ${pieceLabel(str(e.piece))} to ${typeof e.to === 'number' ? `field ${e.to}` : str(e.to).toLowerCase()}`;
    case 'PIECE_BANISHED': return `${pieceLabel(str(e.piece))} banished to start by ${str(e.by)}`;
    case 'PIECE_CARRIED': return `${pieceLabel(str(e.piece))} carried to ${typeof e.to === 'number' ? `field ${e.to}` : str(e.to).toLowerCase()}`;
    case 'ROUND_ENDED': return `Round ${str(e.round)} ended`;
    case 'GAME_WON': return `${str(e.player)} wins!`;
    case 'ROUND_DEALT': return `Round ${str(e.round)} dealt`;
    case 'CARD_FLIPPED': return `Start card ${str(e.card)} flipped`;
    case 'CARD_PLAYED': return `${str(e.player)} played ${str(e.card)}`;
    case 'ZAP_PLAYED': return `${str(e.player)} ZAP!`;
    case 'PAUSE_STARTED': return `Pause for ${str(e.controller)} (${str(e.cause)})`;
    case 'RACE_RESUMED': return 'Race resumed';
    case 'STUCK_ANNOUNCED': return `Nobody can play: ${str(e.controller)} restarts`;
    case 'PLAY_REJECTED': return refusedLine(e, refusals, 'card');
    case 'ROUND_WON': return `${str(e.winner)} won round ${str(e.round)}`;
    case 'ROUND_SCORED': return `Round ${str(e.round)} scored`;
    case 'GAME_OVER': return `Game over: ${Array.isArray(e.winners) ? e.winners.join(', ') : ''}`;
    case 'ACTION_UNDONE': return `Undone${typeof e.reason === 'string' ? `: ${e.reason}` : ''}`;
    case 'CORRECTION_APPLIED': return `Correction: ${str(e.reason)}`;
    case 'STATION_REMOVED': return `Station ${str(e.station)} removed`;
    // The table's answers to what it saw, with their sentence (they used to show as bare words).
    case 'NOTICE': return `The table noticed${typeof e.station === 'string' ? ` at ${e.station}` : ''}: ${str(e.message)}`;
    case 'ACTION_REFUSED': return refusedLine(e, refusals, str(e.action));
    case 'VIOLATION_REPORTED': return `Violation by ${str(e.player)}: ${str(e.kind)}${typeof e.detail === 'string' ? ` — ${e.detail}` : ''}`;
    case 'TIE_PENDING': return 'Tie: the referee decides which play landed first';
    case 'TIE_RESOLVED': return `Tie resolved: ${str(e.first)} was first`;
    case 'PLAYS_REORDERED': return `${str(e.player)}'s late play landed first: ${Array.isArray(e.takenBack) ? e.takenBack.length : 0} play(s) taken back and judged again`;
    case 'PLAY_QUEUED': return `${str(e.player)} played (waiting for the arbitration window)`;
    case 'HAND_REGISTERED': return `${str(e.player)}'s hand registered (${str(e.count)} cards)`;
    case 'HAND_SCORED': return `${str(e.player)}'s hand scored: ${str(e.points)}`;
    default: return e.type.toLowerCase().replaceAll('_', ' ');
  }
}
