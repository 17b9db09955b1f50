/**
 * The simulator panel, for a table on simulated hardware: per seat, place or lift a barrel on the pad, tap a
 * card, press the seat's ZAP button, unplug or plug the station back, so anyone can play a round from the
 * browser. Each control is a `simulate` request `{station, op, item?, grams?}`; the controller turns it into
 * the sensor input the real station would send (the tag of the item, its weight).
 *
 * Every answer is the table's verdict, not "sent": the controller answers once the table has handled what the
 * station sent (accepted, a violation, nothing to do, or refused with its code and sentence).
 *
 * The card list of a Zip-Zap seat is every card in play, unless the token is set: then the seat's hand
 * (`simulated-hand`, only for seats no bot plays) — a viewer without the token never learns a hand. Above the
 * seats: what the table waits for, so a person sitting in for a seat sees when it is their turn.
 */
import { getToken, sendRequest } from '../api.ts';
import { resultLine, tokenForm } from '../common.ts';
import { h, replace } from '../dom.ts';
import { namesOf, type NameOf } from '../names.ts';
import type { PageContext } from '../page.ts';
import type { GamePart } from '../games/game-ui.ts';
import { gameUi } from '../games/registry.ts';
import type { BridgeSeat, BuzzerView, ZappView, ZipZapPublicView } from '../types.ts';
import { zipWaitingFor } from '../zip-waiting.ts';
import { cardName } from '../games/zip-zap/page.ts';

/** A card as the simulate request names it: ZAP cards are kind `zap` in the tag registry. */
function cardItem(card: string): { kind: 'card' | 'zap'; card: string } {
  return { kind: card.startsWith('Z') ? 'zap' : 'card', card };
}

/** What a Zapp Zerapp table waits for, from the public view. */
function zappWaitingFor(view: ZappView, nameOf: NameOf): string {
  if (view.winner !== null) return `${nameOf(view.winner)} has won`;
  switch (view.phase) {
    case 'ROLL': return `Waiting for ${nameOf(view.roller)} to roll: press their button (the pads must be clear)`;
    case 'SELECT': {
      const missing = view.players.filter((p) => view.placed[p.id] !== true).map((p) => nameOf(p.id));
      return `Waiting for a barrel from ${missing.join(', ')}`;
    }
    case 'MOVE':
      return view.currentMover === null ? 'Waiting for the next mover'
        : `Waiting for ${nameOf(view.currentMover)} to move (their button for an only move, else the referee page)`;
    case 'DONE': return 'The game is over';
  }
}

const LETTER: Readonly<Record<string, string>> = { RED: 'R', BLUE: 'B', YELLOW: 'Y', GREEN: 'G', WILD: 'W' };

function select(label: string, id: string, values: readonly string[], labels: readonly string[]): HTMLElement {
  return h('span', { class: 'field inline' }, h('label', { for: id }, label),
    h('select', { id }, values.map((v, i) => h('option', { value: v }, labels[i] ?? v))));
}

/**
 * Re-renders the seats keeping what each list had chosen (when the choice is still offered): a re-render (a hand
 * fetched, a station back online) between choosing a card and pressing "Tap card" must not tap another card.
 */
function keepChoices(host: HTMLElement, render: () => void): void {
  const chosen = new Map([...host.querySelectorAll('select')].map((sel) => [sel.id, sel.value]));
  render();
  for (const sel of host.querySelectorAll('select')) {
    const value = chosen.get(sel.id);
    if (value !== undefined && [...sel.options].some((o) => o.value === value)) sel.value = value;
  }
}

export class SimulatorPage {
  readonly element = h('div', { class: 'simulator' });
  private readonly result = resultLine();
  private readonly seatsHost = h('div', { class: 'sim-seats' });
  private readonly waiting = h('p', { class: 'panel waiting', role: 'status', 'data-testid': 'waiting' });
  private signature = '';
  /** A registered game's own panel (games/registry.ts), while its game runs. */
  private part: { readonly game: string; readonly part: GamePart } | undefined;
  /** Station → the seat's hand as last fetched with the token (null: hidden or refused), and what it was fetched for. */
  private readonly hands = new Map<string, { readonly key: string; cards: readonly string[] | null }>();

  constructor(private readonly ctx: PageContext) {
    this.element.append(h('h1', {}, `Simulator — ${ctx.table}`),
      h('p', { class: 'muted' }, 'Acts like hands at the table: the controller receives what the stations would send. Needs the referee token.'),
      tokenForm(), this.result.element, this.waiting, this.seatsHost);
  }

  private async simulate(what: string, params: Record<string, unknown>): Promise<void> {
    this.result.busy(what);
    this.result.show(what, await sendRequest(this.ctx.table, 'simulate', params));
  }

  /** The seats with their stations: from `bridge/tables` when published, else the conventional `seat-N`. */
  private seats(players: readonly string[]): BridgeSeat[] {
    const bridge = this.ctx.store.bridgeEntry(this.ctx.table);
    if (bridge?.seats !== undefined && bridge.seats.length > 0) return [...bridge.seats];
    return players.map((id, i) => ({ id, station: `seat-${i + 1}` }));
  }

  private stationControls(station: string, button = true): HTMLElement[] {
    const t = this.ctx.store.table(this.ctx.table);
    const online = t.health.get(station)?.online;
    return [
      // A pile station has no button.
      button ? h('button', { type: 'button', 'data-op': 'press', onclick: () => void this.simulate(`${station}: press`, { station, op: 'press' }) }, 'Press ZAP button') : null,
      online === false
        ? h('button', { type: 'button', 'data-op': 'plug', onclick: () => void this.simulate(`${station}: plug in`, { station, op: 'plug' }) }, 'Plug in')
        : h('button', { type: 'button', class: 'secondary', 'data-op': 'unplug', onclick: () => void this.simulate(`${station}: unplug`, { station, op: 'unplug' }) }, 'Unplug'),
    ].filter((b) => b !== null);
  }

  private zappSeat(seat: BridgeSeat): HTMLElement {
    const station = seat.station ?? seat.id;
    const id = `barrel-${station}`;
    const barrels = Array.from({ length: 13 }, (_, i) => String(i + 1));
    const box = h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${seat.id}` },
      h('h2', {}, `${seat.name ?? seat.id} `, h('span', { class: 'muted' }, station)),
      h('div', { class: 'row' }, select('Barrel', id, barrels, barrels),
        h('button', {
          type: 'button', 'data-op': 'place',
          onclick: () => {
            const value = Number((box.querySelector(`#${CSS.escape(id)}`) as HTMLSelectElement).value);
            void this.simulate(`${seat.id}: place a barrel`, { station, op: 'place', item: { kind: 'barrel', value } });
          },
        }, 'Place on pad'),
        h('button', { type: 'button', 'data-op': 'lift', onclick: () => void this.simulate(`${seat.id}: lift`, { station, op: 'lift' }) }, 'Lift')),
      h('div', { class: 'row' }, this.stationControls(station)));
    return box;
  }

  private zipSeat(seat: BridgeSeat, cards: readonly string[], options: { readonly pile?: boolean } = {}): HTMLElement {
    const station = seat.station ?? seat.id;
    const id = `card-${station}`;
    const hand = options.pile === true ? undefined : this.hands.get(station)?.cards ?? undefined;
    const offered = hand ?? cards;
    const box = h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${seat.id}` },
      h('h2', {}, `${seat.name ?? seat.id} `, h('span', { class: 'muted' }, station)),
      options.pile === true ? null : h('p', { class: 'muted hand-note', 'data-testid': `hand-${seat.id}`, 'data-hand': hand === undefined ? 'hidden' : 'shown' },
        hand === undefined
          ? seat.bot === true ? 'a bot plays this seat: every card is listed' : 'every card is listed (with the token: this seat\'s hand)'
          : hand.length === 0 ? 'the hand is empty' : `hand: ${hand.map(cardName).join(', ')}`),
      h('div', { class: 'row' }, select('Card', id, offered, offered.map((c) => `${cardName(c)} (${c})`)),
        h('button', {
          type: 'button', 'data-op': 'tap', disabled: offered.length === 0,
          onclick: () => {
            const card = (box.querySelector(`#${CSS.escape(id)}`) as HTMLSelectElement).value;
            void this.simulate(`${seat.id}: tap a card`, { station, op: 'tap', item: cardItem(card) });
          },
        }, 'Tap card')),
      h('div', { class: 'row' }, this.stationControls(station, options.pile !== true)));
    return box;
  }

  /**
   * Fetches the hands of the seats played from here when the token is set and a hand may have changed (its
   * count, the round, the mode); re-renders when one arrives. Without the token nothing is asked.
   */
  private refreshHands(view: ZipZapPublicView, seats: readonly BridgeSeat[]): void {
    if (getToken() === '') {
      if (this.hands.size > 0) {
        this.hands.clear();
        this.signature = '';
      }
      return;
    }
    for (const seat of seats) {
      if (seat.bot === true) continue;
      const station = seat.station ?? seat.id;
      const key = `${view.round}|${view.mode.kind}|${view.handCounts[seat.id] ?? 0}`;
      if (this.hands.get(station)?.key === key) continue;
      const entry: { key: string; cards: readonly string[] | null } = { key, cards: this.hands.get(station)?.cards ?? null };
      this.hands.set(station, entry);
      void sendRequest(this.ctx.table, 'simulated-hand', { station }).then((r) => {
        const data = r.data as { known?: boolean; cards?: string[] } | undefined;
        entry.cards = r.ok && data?.known === true && Array.isArray(data.cards) ? data.cards : null;
        this.signature = '';
        this.update();
      });
    }
  }

  /** A buzzer table: one "press" button per contestant's station. */
  private buzzerSeats(view: BuzzerView, online: string): void {
    const signature = `buzzer|${view.contestants.map((c) => c.station).join(',')}|${online}`;
    if (signature === this.signature) return;
    this.signature = signature;
    replace(this.seatsHost, view.contestants.map((c) => h('section', { class: 'panel sim-seat', 'data-seat': c.id, 'aria-label': `Buzzer ${c.name}` },
      h('h2', {}, `${c.name} `, h('span', { class: 'muted' }, c.station)),
      h('div', { class: 'row' },
        h('button', { type: 'button', 'data-op': 'press', onclick: () => void this.simulate(`${c.name}: buzz`, { station: c.station, op: 'press' }) }, 'Press buzzer'),
        this.stationControls(c.station).slice(1)))));
  }

  destroy(): void {
    this.part?.part.destroy?.();
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const state = t.state;
    this.waiting.hidden = state?.mode !== 'game';
    if (state?.mode === 'buzzer') {
      this.buzzerSeats(state.buzzer, [...t.health.values()].map((s) => `${s.station}:${s.online}`).join(','));
      return;
    }
    if (state?.mode !== 'game') {
      this.part?.part.destroy?.();
      this.part = undefined;
      replace(this.seatsHost, h('p', { class: 'muted' }, 'No game is running: start one on the referee page.'));
      this.signature = '';
      return;
    }
    const simulator = gameUi(state.game)?.simulator;
    if (simulator !== undefined) {
      if (this.part?.game !== state.game) {
        this.part?.part.destroy?.();
        this.part = { game: state.game, part: simulator({ ctx: this.ctx, seats: (players) => this.seats(players) }) };
        replace(this.seatsHost, this.part.part.element);
        this.signature = '';
      }
      this.part.part.update();
      return;
    }
    this.part?.part.destroy?.();
    this.part = undefined;
    const online = [...t.health.values()].map((s) => `${s.station}:${s.online}`).join(',');
    const nameOf = namesOf(this.ctx.store, this.ctx.table);
    if (state.game === 'zapp-zerapp') {
      const view = state.view as unknown as ZappView;
      this.waiting.textContent = zappWaitingFor(view, nameOf);
      const signature = `zapp|${view.players.map((p) => p.id).join(',')}|${online}`;
      if (signature === this.signature) return;
      this.signature = signature;
      keepChoices(this.seatsHost, () => {
        replace(this.seatsHost, this.seats(view.players.map((p) => p.id)).map((seat) => this.zappSeat(seat)));
      });
      return;
    }
    const view = state.view as unknown as ZipZapPublicView;
    const seats = this.seats(view.players.map((p) => p.id));
    const humans = new Set(seats.filter((s) => s.bot !== true).map((s) => s.id));
    const waiting = zipWaitingFor(view, nameOf, humans);
    this.waiting.textContent = waiting.text;
    this.waiting.classList.toggle('you', waiting.players.some((p) => humans.has(p)));
    this.refreshHands(view, seats);
    const hands = [...this.hands.entries()].map(([station, e]) => `${station}:${e.cards?.join('.') ?? '-'}`).join(',');
    const signature = `zip|${view.players.map((p) => p.id).join(',')}|${view.suits.join(',')}|${online}|${hands}`;
    if (signature === this.signature) return;
    this.signature = signature;
    const numbers = view.suits.flatMap((suit) => Array.from({ length: 10 }, (_, i) => `${LETTER[suit] ?? '?'}${i + 1}`));
    const pile = this.ctx.store.bridgeEntry(this.ctx.table)?.pileStation;
    // Cards played on the pile belong to whoever holds them: every card is listed there.
    const zaps = seats.map((_, i) => `Z${i + 1}`);
    keepChoices(this.seatsHost, () => {
      replace(this.seatsHost, seats.map((seat, i) => this.zipSeat(seat, [...numbers, `Z${i + 1}`])),
        pile === undefined ? null : this.zipSeat({ id: 'pile', name: 'Pile', station: pile }, [...numbers, ...zaps], { pile: true }));
    });
  }
}
