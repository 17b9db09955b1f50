/**
 * Pieces of page shared by several pages: the status badge, player labels, event lines and the request
 * result line.
 */
import type { ControlResult } from './api.ts';
import { COLOUR_HEX, COLOUR_NAME, locLabel, pieceLabel } from './board-svg.ts';
import { clock, h } from './dom.ts';
import { inTimeOrder, playNotes, type PlayNote } from './event-order.ts';
import type { NameOf } from './names.ts';
import { refusalText, refusedSentence, type RefusalSentences } from './refusal-text.ts';
import type { StateStatus } from './store-types.ts';
import type { Colour, MoveOption, PublicEventJson } from './types.ts';

export function statusBadge(status: StateStatus): HTMLElement {
  const text = status === 'online' ? 'online' : status === 'offline' ? 'offline' : 'no status';
  return h('span', { class: `badge status-${status}`, 'data-testid': 'table-status' }, text);
}

/** "bot" beside a player a bot plays (names.ts `botsOf`), so nobody mistakes a demo seat for a person. */
export function botBadge(bots: ReadonlySet<string>, player: string): HTMLElement | null {
  return bots.has(player) ? h('span', { class: 'badge bot', 'data-testid': `bot-${player}`, title: 'a bot plays this seat' }, 'bot') : null;
}

export function swatch(colour: Colour): HTMLElement {
  const el = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  el.style.background = COLOUR_HEX[colour];
  return el;
}

export function playerWithColour(id: string, colour: Colour): HTMLElement {
  return h('span', { class: 'player-name' }, swatch(colour), `${id} `, h('span', { class: 'muted' }, `(${COLOUR_NAME[colour]})`));
}

/**
 * One line describing a legal move and its consequences. `alike`: the pieces that would make the very same move
 * (standing together), named as one choice: "R1, R2 or R3 (together at start): start → field 8 (5 steps)".
 */
export function describeMove(m: MoveOption, alike: readonly string[] = [m.piece]): string {
  const who = alike.length <= 1 ? pieceLabel(m.piece)
    : `${alike.slice(0, -1).map(pieceLabel).join(', ')} or ${pieceLabel(alike.at(-1) ?? m.piece)} (together at ${locLabel(m.from)})`;
  const parts = [`${who}: ${locLabel(m.from)} → ${locLabel(m.to)} (${m.steps} step${m.steps === 1 ? '' : 's'}`
    + `${m.forfeited > 0 ? `, ${m.forfeited} forfeited` : ''})`];
  if (m.entersCity) parts.push('enters the city');
  if (m.banishes.length > 0) parts.push(`banishes ${m.banishes.map(pieceLabel).join(', ')}`);
  if (m.carryable.length > 0) parts.push(`may carry ${m.carryable.map((c) => `${pieceLabel(c.piece)} (to ${locLabel(c.putDown)})`).join(', ')}`);
  const spared = m.spared.filter((x) => x.reason !== 'OWN');
  if (spared.length > 0) parts.push(`spares ${spared.map((x) => `${pieceLabel(x.piece)} (${x.reason.toLowerCase()})`).join(', ')}`);
  return parts.join('; ');
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));

/**
 * A public event as a line for people; `nameOf` gives the players' configured names, `refusals` the game's
 * sentences for its refusal codes (refusal-text.ts).
 */
export function describeEvent(e: PublicEventJson, nameOf: NameOf = (id) => id, refusals?: RefusalSentences): string {
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

/** A game's wording of its events (its GameUi's `describeEvent`). */
export type DescribeEvent = (e: PublicEventJson, nameOf: (id: string) => string, note?: PlayNote) => string;

/**
 * The recent events, newest first by the moment each happened (event-order.ts: a play applied after a ruling
 * is shown where it landed), in sentences with players by name: `describe` is the game's own wording (its
 * GameUi's `describeEvent`), else the shared one above; plays taken back for a tie or a late line say so.
 */
export function eventList(
  events: readonly PublicEventJson[], limit = 12, nameOf?: (id: string) => string, describe?: DescribeEvent,
  named: (text: string) => string = (text) => text,
): HTMLElement {
  const notes = playNotes(events);
  const recent = inTimeOrder(events.slice(-limit)).reverse();
  // Only a game with ties or late lines (its own wording) has notes to say.
  const line = (e: PublicEventJson): string =>
    (describe === undefined ? describeEvent(e, nameOf) : describe(e, nameOf ?? ((id) => id), notes.get(e.seq)));
  return h('section', { class: 'panel events', 'aria-label': 'Recent events' },
    h('h2', {}, 'Recent events'),
    recent.length === 0 ? h('p', { class: 'muted' }, 'none yet') :
        h('ol', { class: 'event-list', 'data-testid': 'events' }, recent.map((e) => h('li', { 'data-type': e.type, ...(notes.has(e.seq) ? { 'data-note': notes.get(e.seq) } : {}) },
          h('time', {}, clock(e.at)), ' ', named(line(e))))));
}

/**
 * How an answer is worded: the running game's refusal sentences (refusal-text.ts) and its ids replaced by
 * names (names.ts `namedText`).
 */
export interface Wording {
  readonly refusals?: RefusalSentences;
  readonly named?: (text: string) => string;
}

/** The line that shows a control's answer (role=status, so screen readers hear it). */
export interface ResultLine {
  readonly element: HTMLElement;
  show(what: string, r: ControlResult, wording?: Wording): void;
  /** Shows a sentence of the page's own (the simulator's events), ok or not. */
  say(text: string, ok: boolean, outcome: string): void;
  busy(what: string): void;
}

export function resultLine(): ResultLine {
  const element = h('p', { class: 'result', role: 'status', 'aria-live': 'polite', 'data-testid': 'result', 'data-answers': 0 });
  let answers = 0;
  return {
    element,
    busy: (what) => {
      element.className = 'result busy';
      element.textContent = `${what}: sending…`;
    },
    say: (text, ok, outcome) => {
      // Counts answers, so a test can wait for the next one rather than read a stale line.
      element.setAttribute('data-answers', String(++answers));
      element.className = `result ${ok ? 'ok' : 'error'}`;
      element.setAttribute('data-outcome', outcome);
      element.textContent = text;
    },
    show(what, r, wording = {}) {
      const named = wording.named ?? ((text: string) => text);
      // An answer that says what came of it (the simulator's: applied, a violation, nothing to do) shows that.
      const data = r.data as { outcome?: unknown; message?: unknown } | undefined;
      const said = r.ok && typeof data?.message === 'string' ? named(data.message) : '';
      // A refusal in words (refusal-text.ts); its code stays in data-outcome for whoever needs it.
      const why = named(refusalText(r.code ?? 'ERROR', r.message, wording.refusals));
      this.say(r.ok ? `${what}: ok${said === '' ? '' : ` — ${said}`}` : `${what}: refused — ${why}`,
        r.ok, r.ok ? (typeof data?.outcome === 'string' ? data.outcome : 'ok') : r.code ?? 'ERROR');
    },
  };
}

/**
 * A game's rules in short, folded under "How to play" (in the page itself, so it works at a venue with no
 * internet): each game's `GameUi.rules`; `source` names where the full numbered rules are.
 */
export function rulesBox(title: string, rules: readonly string[], source: string): HTMLElement {
  return h('details', { class: 'panel rules', 'data-testid': 'rules' },
    h('summary', {}, `How to play ${title}`),
    h('ul', {}, rules.map((r) => h('li', {}, r))),
    h('p', { class: 'muted' }, `The full numbered rules: ${source}. The dashboard's own guide: dashboard/README.md.`));
}

/** A select's options: the values, shown as their labels where given. */
export function options(values: readonly string[], labels?: readonly string[]): HTMLOptionElement[] {
  return values.map((v, i) => h('option', { value: v }, labels?.[i] ?? v));
}

export function field(label: string, control: HTMLElement, id: string): HTMLElement {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

/** The token entry (web/token-form.ts: checked against the dashboard, valid / refused). */
export { tokenForm } from './token-form.ts';
