/**
 * The sentences of the Killer-21 pages, from the engine's public view and public events (docs/rules-engine.md):
 * whose turn, the direction, the Killer countdown and answers, a zero on the deadline for the referee with its
 * figures, every event and refusal with its reason. Pure (no DOM, no clock: `now` is a parameter), so a unit
 * test reads exactly what the page shows. It imports nothing that needs the DOM, for the same reason.
 */
import type { PublicAnswer, PublicKillerWindow, Killer21PublicView } from '../../../../controller/rules/killer-21/view.ts';
import { refusalText as sharedRefusalText, refusedSentence } from '../../refusal-text.ts';
import { span } from '../../tie-text.ts';
import type { PublicEventJson } from '../../types.ts';
import { cardName } from './card-names.ts';
import { K21_REFUSALS } from './refusals.ts';

export type { Killer21PublicView, PublicKillerWindow, PublicAnswer };

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : v === undefined ? '?' : JSON.stringify(v));

/** A player's name as configured (bridge/tables); the id when there is none. */
export type Namer = (player: string) => string;

const ID: Namer = (player) => player;

function names(ids: readonly string[], n: Namer = ID): string {
  const players = ids.map(n);
  return players.length <= 2 ? players.join(' and ') : `${players.slice(0, -1).join(', ')} and ${players.at(-1) ?? ''}`;
}

/** The direction with its arrow (the arrow is decoration: the word says it). */
export function directionText(view: Pick<Killer21PublicView, 'direction'>): string {
  return view.direction === 'CLOCKWISE' ? '↻ clockwise' : '↺ counter-clockwise';
}

/** What the table waits for now, in one line (the page's banner). */
export function bannerText(view: Killer21PublicView, n: Namer = ID): string {
  switch (view.phase) {
    case 'TURN':
      return `${view.turn === null ? '—' : n(view.turn)} to play`;
    case 'KILLER':
      return killerBanner(view.killer, n);
    case 'ROUND_OVER': {
      const won = view.roundWinners.at(-1) ?? [];
      return `Round ${view.round} won by ${won.length === 0 ? 'nobody' : names(won, n)} — the referee deals the next round`;
    }
    case 'GAME_OVER':
      return `Game over — ${view.winners.length === 1 ? 'winner' : 'winners'}: ${view.winners.length === 0 ? 'nobody' : names(view.winners, n)}`;
    case 'DEALING':
      return `Dealt at the table: ${names(view.registering, n)} — lay your hand on your pad, or the referee skips`;
    case 'SCORING': {
      const waiting = Object.keys(view.scoring?.pending ?? {});
      return `Tie-break on the red points in hand: ${names(waiting, n)} — lay your hand on your pad`;
    }
  }
}

function killerBanner(w: PublicKillerWindow | null, n: Namer): string {
  if (w === null) return 'KILLER!';
  if (!w.closed) return `KILLER by ${n(w.by)}! Put a red 0 on your pad${w.deadline === null ? '' : ` within ${seconds(w.windowMs)}`}`;
  return 'KILLER: the window has closed — waiting for the referee';
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The Killer countdown: seconds left to the deadline by this screen's clock (`now`, ms since 1970; the
 * controller and the screen share time through NTP on a LAN, and the deadline is the controller's), "time is
 * up" until the table closes the window, and what a closed or untimed window waits for.
 */
export function countdownText(w: PublicKillerWindow, now: number): string {
  if (w.closed) return ties(w).length > 0 ? 'closed: a red 0 on the deadline waits for the referee' : 'closed';
  if (w.deadline === null) return 'untimed: open until everyone has answered or the referee closes it';
  const left = w.deadline - now;
  return left > 0 ? `${seconds(left)} left` : 'time is up';
}

/** The share of the window still left, 0..1 (the countdown bar); 0 for a closed or untimed window. */
export function countdownFraction(w: PublicKillerWindow, now: number): number {
  if (w.closed || w.deadline === null || w.windowMs <= 0) return 0;
  return Math.min(1, Math.max(0, (w.deadline - now) / w.windowMs));
}

const ANSWER: Readonly<Record<PublicAnswer['status'], string>> = {
  PENDING: 'waiting',
  ZERO: 'red 0 in time',
  LATE: 'red 0 too late: loses a life',
  TIE: 'red 0 on the deadline: the referee rules',
  CONCEDED: 'no red 0 (pressed ZAP): loses a life',
  MISSED: 'no answer: loses a life',
};

/** One player's answer to the Killer, in words. */
export function answerText(a: PublicAnswer | undefined): string {
  return ANSWER[a?.status ?? 'PENDING'];
}

/** The players whose zero straddles the deadline, in seat order (K21-34). */
export function ties(w: PublicKillerWindow): string[] {
  return w.required.filter((p) => w.answers[p]?.status === 'TIE');
}

/**
 * The referee's sentence for a zero whose landing interval straddles the deadline (K21-33, K21-34), like
 * Zip-Zap's tie banner (tie-text.ts): "ben's red 0 landed 12.0 ms before the deadline, ±30.0 ms: in time?".
 */
export function zeroTieSentence(player: string, w: PublicKillerWindow, n: Namer = ID): string {
  const a = w.answers[player];
  if (a?.at === undefined || w.deadline === null) return `${n(player)}'s red 0 landed on the deadline: in time?`;
  const d = a.at - w.deadline;
  const when = d === 0 ? 'exactly at the deadline' : `${span(Math.abs(d))} ${d < 0 ? 'before' : 'after'} the deadline`;
  return `${n(player)}'s red 0 landed ${when}, ±${span(a.uncertaintyMs ?? 0)}: in time?`;
}

const LOSS: Readonly<Record<string, string>> = {
  BUST: 'could not play', LIFE_CARD: 'the Life card', KILLER: 'no red 0 for the Killer', SHED_OUT: 'another player went out',
};

/** Why a life was lost, in words. */
export function lossText(reason: string): string {
  return LOSS[reason] ?? reason.toLowerCase().replaceAll('_', ' ');
}

/** A refusal's reason in players' words (refusal-text.ts with Killer-21's sentences; a hidden one says so). */
export function refusalText(code: string, message?: string): string {
  return sharedRefusalText(code, message, K21_REFUSALS);
}

/** "Cy's play was refused: …": whose, when known (the simulator knows who it acted for), what and why. */
export function refusedLine(action: string, code: string, message?: string, who?: string): string {
  return refusedSentence(`${who === undefined ? 'A' : `${who}'s`} ${action}`, code, message, K21_REFUSALS);
}

const END: Readonly<Record<string, string>> = { DEADLINE: 'its time ran out', ALL_ANSWERED: 'everyone answered', REFEREE: 'the referee closed it' };
const GAME_END: Readonly<Record<string, string>> = { LAST_PLAYER: 'last player with lives', ALL_OUT: 'everyone left went out at once', BLITZ: 'Blitz' };

/** A Killer-21 event (or a table event) as a line for people. */
export function describeK21Event(e: PublicEventJson, n: Namer = ID): string {
  switch (e.type) {
    case 'GAME_STARTED': return `Game started: ${Array.isArray(e.players) ? names(e.players as string[], n) : ''}, ${str(e.lives)} lives each`;
    case 'ROUND_DEALT': return `Round ${str(e.round)} dealt by ${n(str(e.dealer))}; ${n(str(e.first))} starts`;
    case 'CARD_PLAYED': return `${n(str(e.player))} played ${cardName(str(e.card))}: total ${str(e.total)}`;
    case 'CARDS_DRAWN': return `${n(str(e.player))} drew ${str(e.count)}`;
    case 'DRAW_SHORT': return `${n(str(e.player))} could not draw ${str(e.missing)}: the deck is empty`;
    case 'DECK_RESHUFFLED': return `The pile was shuffled into a new deck (${str(e.cards)} cards)`;
    case 'TURN_SKIPPED': return `${n(str(e.player))} is skipped`;
    case 'DIRECTION_CHANGED': return `Direction: ${e.direction === 1 ? 'clockwise' : 'counter-clockwise'}`;
    case 'DIRECTION_KEPT': return 'Reverse with two players: the direction stays, the other player plays';
    case 'TURN_STARTED': return `${n(str(e.player))}'s turn (total ${str(e.total)})`;
    case 'BUSTED': return `${n(str(e.player))} cannot play at ${str(e.total)}: bust${e.trusted === true ? ' (unseen cards: taken on trust)' : ''}`;
    case 'TOTAL_RESET': return 'The total goes back to 0';
    case 'LIFE_LOST': return `${n(str(e.player))} loses a life (${lossText(str(e.reason))}): ${str(e.lives)} left`;
    case 'KILLER_WINDOW_OPENED': return `KILLER by ${n(str(e.by))}! ${Array.isArray(e.required) ? names(e.required as string[], n) : ''} must answer with a red 0`;
    case 'ZERO_IN_TIME': return `${n(str(e.player))}: red 0 in time`;
    case 'ZERO_LATE': return `${n(str(e.player))}: red 0 ${span(Number(e.lateByMs))} too late`;
    case 'ZERO_TIED': return `${n(str(e.player))}: red 0 ${e.boundary === 'KILLER' ? 'together with the Killer' : 'on the deadline'} (±${span(Number(e.uncertaintyMs))}): the referee rules`;
    case 'RESPONSE_RULED': return `Referee: ${n(str(e.player))}'s red 0 was ${e.inTime === true ? 'in time' : 'late'}`;
    case 'ANSWER_CONCEDED': return `${n(str(e.player))} has no red 0`;
    case 'KILLER_WINDOW_CLOSED': {
      const missing = Array.isArray(e.missing) && e.missing.length > 0 ? `; no answer from ${names(e.missing as string[], n)}` : '';
      return `Killer window closed: ${END[str(e.reason)] ?? str(e.reason)}${missing}`;
    }
    case 'KILLER_SETTLED': {
      const lost = Array.isArray(e.withoutZero) ? e.withoutZero as string[] : [];
      return `Killer settled: ${lost.length === 0 ? 'nobody loses a life' : `${names(lost, n)} ${lost.length === 1 ? 'loses' : 'lose'} a life`}`;
    }
    case 'PLAYER_OUT': return `${n(str(e.player))} is out of the game`;
    case 'ROUND_WON': return `${Array.isArray(e.winners) ? names(e.winners as string[], n) : ''} went out: round ${str(e.round)} won`;
    case 'GAME_OVER': return `Game over (${GAME_END[str(e.reason)] ?? str(e.reason)}): ${Array.isArray(e.winners) ? names(e.winners as string[], n) : ''}`;
    case 'HAND_REGISTERED': return `${n(str(e.player))}'s hand registered (${str(e.count)} cards)`;
    case 'REGISTRATION_SKIPPED': return `Registration skipped${Array.isArray(e.players) && e.players.length > 0 ? `: ${names(e.players as string[], n)} play with unseen hands` : ''}`;
    case 'TIE_BREAK_PENDING': return `Tie-break on red points: ${Array.isArray(e.candidates) ? names(e.candidates as string[], n) : ''} lay their hands on their pads`;
    case 'TIE_BREAK_SKIPPED': return `Tie-break skipped by the referee: ${Array.isArray(e.candidates) ? names(e.candidates as string[], n) : ''} share the win`;
    case 'ACTION_REFUSED': return refusedLine(str(e.action), str(e.code), typeof e.message === 'string' ? e.message : undefined);
    case 'NOTICE': {
      const who = typeof e.player === 'string' ? `${n(e.player)}: ` : typeof e.station === 'string' ? `${e.station}: ` : '';
      return `${who}${str(e.message)} (${str(e.code)})`;
    }
    // The table's own events (docs/mqtt.md), as every game page words them (common.ts, which needs the DOM).
    case 'NEW_GAME': return `New game: ${str(e.game)}`;
    case 'ACTION_UNDONE': return `Undone${typeof e.reason === 'string' ? `: ${e.reason}` : ''}`;
    case 'CORRECTION_APPLIED': return `Correction: ${str(e.reason)}`;
    case 'STATION_REMOVED': return `Station ${str(e.station)} removed`;
    default: return e.type.toLowerCase().replaceAll('_', ' ');
  }
}

/** The overview's lines for a Killer-21 table. */
/** The overview's phase line. */
function overviewPhase(view: Killer21PublicView, n: Namer): string {
  switch (view.phase) {
    case 'GAME_OVER': return `game over, ${view.winners.length === 0 ? 'no winner' : `won by ${names(view.winners, n)}`}`;
    case 'ROUND_OVER': return `round ${view.round} over`;
    case 'KILLER': return `round ${view.round}, KILLER window`;
    case 'DEALING': return `round ${view.round}, registering hands`;
    case 'SCORING': return 'tie-break on hands';
    case 'TURN': return `round ${view.round}, ${view.turn === null ? '—' : n(view.turn)} to play, total ${view.total}`;
  }
}

export function overviewLine(view: Killer21PublicView, n: Namer = ID): { game: string; players: string; phase: string } {
  return {
    game: `Killer-21${view.variant === 'BLITZ' ? ' (Blitz)' : ''}`,
    players: view.players.map((p) => `${n(p.id)} (${p.out ? 'out' : `${p.lives} ${p.lives === 1 ? 'life' : 'lives'}`})`).join(', '),
    phase: overviewPhase(view, n),
  };
}
