/**
 * The Zapp Zerapp seats of the simulator page: per seat, place a barrel of a chosen value on the pad or lift that
 * barrel (one of the two a pad may hold),
 * press the seat's ZAP button, unplug or plug the station back; above them, what the table waits for.
 */
import { h, replace } from '../../dom.ts';
import { namesOf, type NameOf } from '../../names.ts';
import { keepChoices, labelledSelect, onlineSignature, stationControls } from '../../sim-controls.ts';
import type { BridgeSeat, ZappView } from '../../types.ts';
import type { GamePart, SimulatorKit } from '../game-ui.ts';
import { zappView } from './page.ts';

/** What a Zapp Zerapp table waits for, from the public view. */
export function zappWaitingFor(view: ZappView, nameOf: NameOf): string {
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

/** The barrels in the box: values 1 to 13. */
const BARRELS = Array.from({ length: 13 }, (_, i) => String(i + 1));

export class ZappSimulatorSeats implements GamePart {
  /** A grid of its own inside the page's (style.css: `.sim-seats > .sim-seats`). */
  readonly element = h('div', { class: 'sim-seats' });
  private signature = '';

  constructor(private readonly kit: SimulatorKit) {}

  private seat(seat: BridgeSeat): HTMLElement {
    const station = seat.station ?? seat.id;
    const id = `barrel-${station}`;
    const who = namesOf(this.kit.ctx.store, this.kit.ctx.table)(seat.id);
    const value = (): number => Number((box.querySelector(`#${CSS.escape(id)}`) as HTMLSelectElement).value);
    // Place and Lift both act on the chosen barrel: a pad may hold two, and a hand lifts one at a time.
    const box = h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${who}` },
      h('h2', {}, `${who} `, h('span', { class: 'muted' }, station)),
      seat.bot === true ? h('p', { class: 'muted', 'data-testid': `bot-${seat.id}` }, 'a bot plays this seat') : null,
      h('div', { class: 'row' }, labelledSelect('Barrel', id, BARRELS, BARRELS),
        h('button', {
          type: 'button', 'data-op': 'place',
          onclick: () => void this.kit.simulate(`${who}: place barrel ${value()}`, { station, op: 'place', item: { kind: 'barrel', value: value() } }),
        }, 'Place on pad'),
        h('button', {
          type: 'button', 'data-op': 'lift',
          onclick: () => void this.kit.simulate(`${who}: lift barrel ${value()}`, { station, op: 'lift', item: { kind: 'barrel', value: value() } }),
        }, 'Lift this barrel')),
      h('div', { class: 'row' }, stationControls(this.kit, station)));
    return box;
  }

  update(): void {
    const view = zappView(this.kit.ctx);
    if (view === undefined) return;
    this.kit.waiting(zappWaitingFor(view, namesOf(this.kit.ctx.store, this.kit.ctx.table)));
    // Rebuilt only when the seats or the stations change, keeping the chosen barrels.
    const signature = `${view.players.map((p) => p.id).join(',')}|${onlineSignature(this.kit.ctx)}`;
    if (signature === this.signature) return;
    this.signature = signature;
    keepChoices(this.element, () => {
      replace(this.element, this.kit.seats(view.players.map((p) => p.id)).map((seat) => this.seat(seat)));
    });
  }
}
