/**
 * Pieces of the simulator page's seats shared by the games' seat parts (`games/<id>/simulator-seats.ts`) and the
 * page's own buzzer seats: a labelled select, a station's ZAP button and plug, the stations' online signature,
 * and re-rendering that keeps each list's choice.
 */
import { options } from './common.ts';
import { h } from './dom.ts';
import { namesOf, stationNamesOf } from './names.ts';
import type { PageContext } from './page.ts';

/** What the station controls need: the table's health and the page's `simulate` (SimulatorKit). */
export interface SimSender {
  readonly ctx: PageContext;
  simulate(what: string, params: Record<string, unknown>): Promise<void>;
}

/** A select with its label, its options' values and labels. */
export function labelledSelect(label: string, id: string, values: readonly string[], labels: readonly string[]): HTMLElement {
  return h('span', { class: 'field inline' }, h('label', { for: id }, label),
    h('select', { id }, options(values, labels)));
}

/** A station's "Press ZAP button" (not for a pile station, which has none) and its Unplug / Plug in. */
export function stationControls(kit: SimSender, station: string, button = true): HTMLElement[] {
  const online = kit.ctx.store.table(kit.ctx.table).health.get(station)?.online;
  // Answers name the seat's player ("Ada: ZAP button"), the station only where no seat has it.
  const seat = kit.ctx.store.bridgeEntry(kit.ctx.table)?.seats?.find((s) => s.station === station);
  const { store, table } = kit.ctx;
  const who = seat === undefined ? stationNamesOf(store, table)(station) : namesOf(store, table)(seat.id);
  return [
    button ? h('button', {
      type: 'button', 'data-op': 'press', onclick: () => void kit.simulate(`${who}: ZAP button`, { station, op: 'press' }),
    }, 'Press ZAP button') : null,
    online === false
      ? h('button', { type: 'button', 'data-op': 'plug', onclick: () => void kit.simulate(`${who}: plug in`, { station, op: 'plug' }) }, 'Plug in')
      : h('button', { type: 'button', class: 'secondary', 'data-op': 'unplug', onclick: () => void kit.simulate(`${who}: unplug`, { station, op: 'unplug' }) }, 'Unplug'),
  ].filter((b) => b !== null);
}

/** Which stations are online, as one string: seats are rebuilt when it changes (their Plug in / Unplug). */
export function onlineSignature(ctx: PageContext): string {
  return [...ctx.store.table(ctx.table).health.values()].map((s) => `${s.station}:${s.online}`).join(',');
}

/**
 * Re-renders the seats keeping what each list had chosen (when the choice is still offered): a re-render (a hand
 * fetched, a station back online) between choosing a card and pressing "Tap card" must not tap another card.
 */
export function keepChoices(host: HTMLElement, render: () => void): void {
  const chosen = new Map([...host.querySelectorAll('select')].map((sel) => [sel.id, sel.value]));
  render();
  for (const sel of host.querySelectorAll('select')) {
    const value = chosen.get(sel.id);
    if (value !== undefined && [...sel.options].some((o) => o.value === value)) sel.value = value;
  }
}
