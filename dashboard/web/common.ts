/**
 * Pieces of page shared by several pages: the status badge, player labels, event lines and the request
 * result line.
 */
import type { ControlResult } from './api.ts';
import { COLOUR_HEX, COLOUR_NAME, locLabel, pieceLabel } from './board-svg.ts';
import { clock, h } from './dom.ts';
import { inTimeOrder, playNotes, type PlayNote } from './event-order.ts';
import { describeEvent } from './event-text.ts';
import { refusalText, type RefusalSentences } from './refusal-text.ts';
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

export { describeEvent };

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
