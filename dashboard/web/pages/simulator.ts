/**
 * The simulator panel, for a table on simulated hardware: per seat, place or lift a barrel on the pad, tap a
 * card, press the seat's ZAP button, unplug or plug the station back, so anyone can play a round from the
 * browser. Each control is a `simulate` request `{station, op, item?, grams?}`; the controller turns it into
 * the sensor input the real station would send (the tag of the item, its weight).
 *
 * The lists offer every barrel and every card in play, never "the cards in this hand": the page knows no hand.
 */
import { sendRequest } from '../api.ts';
import { resultLine, tokenForm } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { PageContext } from '../page.ts';
import type { GamePart } from '../games/game-ui.ts';
import { gameUi } from '../games/registry.ts';
import type { BridgeSeat, BuzzerView, ZappView, ZipZapPublicView } from '../types.ts';
import { cardName } from './zip-zap.ts';

const LETTER: Readonly<Record<string, string>> = { RED: 'R', BLUE: 'B', YELLOW: 'Y', GREEN: 'G', WILD: 'W' };

function select(label: string, id: string, values: readonly string[], labels: readonly string[]): HTMLElement {
  return h('span', { class: 'field inline' }, h('label', { for: id }, label),
    h('select', { id }, values.map((v, i) => h('option', { value: v }, labels[i] ?? v))));
}

export class SimulatorPage {
  readonly element = h('div', { class: 'simulator' });
  private readonly result = resultLine();
  private readonly seatsHost = h('div', { class: 'sim-seats' });
  private signature = '';
  /** A registered game's own panel (games/registry.ts), while its game runs. */
  private part: { readonly game: string; readonly part: GamePart } | undefined;

  constructor(private readonly ctx: PageContext) {
    this.element.append(h('h1', {}, `Simulator — ${ctx.table}`),
      h('p', { class: 'muted' }, 'Acts like hands at the table: the controller receives what the stations would send. Needs the referee token.'),
      tokenForm(), this.result.element, this.seatsHost);
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

  private stationControls(station: string): HTMLElement[] {
    const t = this.ctx.store.table(this.ctx.table);
    const online = t.health.get(station)?.online;
    return [
      h('button', { type: 'button', 'data-op': 'press', onclick: () => void this.simulate(`${station}: press`, { station, op: 'press' }) }, 'Press ZAP button'),
      online === false
        ? h('button', { type: 'button', 'data-op': 'plug', onclick: () => void this.simulate(`${station}: plug in`, { station, op: 'plug' }) }, 'Plug in')
        : h('button', { type: 'button', class: 'secondary', 'data-op': 'unplug', onclick: () => void this.simulate(`${station}: unplug`, { station, op: 'unplug' }) }, 'Unplug'),
    ];
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

  private zipSeat(seat: BridgeSeat, cards: readonly string[]): HTMLElement {
    const station = seat.station ?? seat.id;
    const id = `card-${station}`;
    const box = h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${seat.id}` },
      h('h2', {}, `${seat.name ?? seat.id} `, h('span', { class: 'muted' }, station)),
      h('div', { class: 'row' }, select('Card', id, cards, cards.map((c) => `${cardName(c)} (${c})`)),
        h('button', {
          type: 'button', 'data-op': 'tap',
          onclick: () => {
            const card = (box.querySelector(`#${CSS.escape(id)}`) as HTMLSelectElement).value;
            void this.simulate(`${seat.id}: tap a card`, { station, op: 'tap', item: { kind: 'card', card } });
          },
        }, 'Tap card')),
      h('div', { class: 'row' }, this.stationControls(station)));
    return box;
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
    if (state.game === 'zapp-zerapp') {
      const view = state.view as unknown as ZappView;
      const signature = `zapp|${view.players.map((p) => p.id).join(',')}|${online}`;
      if (signature === this.signature) return;
      this.signature = signature;
      replace(this.seatsHost, this.seats(view.players.map((p) => p.id)).map((seat) => this.zappSeat(seat)));
      return;
    }
    const view = state.view as unknown as ZipZapPublicView;
    const signature = `zip|${view.players.map((p) => p.id).join(',')}|${view.suits.join(',')}|${online}`;
    if (signature === this.signature) return;
    this.signature = signature;
    const numbers = view.suits.flatMap((suit) => Array.from({ length: 10 }, (_, i) => `${LETTER[suit] ?? '?'}${i + 1}`));
    const seats = this.seats(view.players.map((p) => p.id));
    replace(this.seatsHost, seats.map((seat, i) => this.zipSeat(seat, [...numbers, `Z${i + 1}`])));
    const pile = this.ctx.store.bridgeEntry(this.ctx.table)?.pileStation;
    if (pile !== undefined) this.seatsHost.append(this.zipSeat({ id: 'pile', name: 'Pile', station: pile }, numbers));
  }
}
