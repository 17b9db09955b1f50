/**
 * The Zip-Zap seats of the simulator page: per seat, tap a chosen card on the pad, press the seat's ZAP button,
 * unplug or plug the station back; the pile station's card list; above them, what the table waits for, with the
 * seats played from here named as "you".
 *
 * A seat's card list is every card in play, unless the token is set: then the seat's hand (`simulated-hand`,
 * only for seats no bot plays) — a viewer without the token never learns a hand.
 */
import { getToken, sendRequest } from '../../api.ts';
import { h, replace } from '../../dom.ts';
import { namesOf } from '../../names.ts';
import { keepChoices, labelledSelect, onlineSignature, stationControls } from '../../sim-controls.ts';
import type { BridgeSeat, ZipZapPublicView } from '../../types.ts';
import type { GamePart, SimulatorKit } from '../game-ui.ts';
import { cardName } from './card-names.ts';
import { zipView } from './page.ts';
import { zipWaitingFor } from './waiting.ts';

/** A card as the simulate request names it: ZAP cards are kind `zap` in the tag registry. */
function cardItem(card: string): { kind: 'card' | 'zap'; card: string } {
  return { kind: card.startsWith('Z') ? 'zap' : 'card', card };
}

/** A suit's letter in the card ids. */
const LETTER: Readonly<Record<string, string>> = { RED: 'R', BLUE: 'B', YELLOW: 'Y', GREEN: 'G', WILD: 'W' };

export class ZipSimulatorSeats implements GamePart {
  /** A grid of its own inside the page's (style.css: `.sim-seats > .sim-seats`). */
  readonly element = h('div', { class: 'sim-seats' });
  private signature = '';
  private destroyed = false;
  /** Station → the seat's hand as last fetched with the token (null: hidden or refused), and what it was fetched for. */
  private readonly hands = new Map<string, { readonly key: string; cards: readonly string[] | null }>();

  constructor(private readonly kit: SimulatorKit) {}

  private seat(seat: BridgeSeat, cards: readonly string[], options: { readonly pile?: boolean } = {}): HTMLElement {
    const station = seat.station ?? seat.id;
    const id = `card-${station}`;
    const hand = options.pile === true ? undefined : this.hands.get(station)?.cards ?? undefined;
    const offered = hand ?? cards;
    const who = options.pile === true ? seat.name ?? seat.id : namesOf(this.kit.ctx.store, this.kit.ctx.table)(seat.id);
    const box = h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${who}` },
      h('h2', {}, `${who} `, h('span', { class: 'muted' }, station)),
      options.pile === true ? null : h('p', { class: 'muted hand-note', 'data-testid': `hand-${seat.id}`, 'data-hand': hand === undefined ? 'hidden' : 'shown' },
        hand === undefined
          ? seat.bot === true ? 'a bot plays this seat: every card is listed' : 'every card is listed (with the token: this seat\'s hand)'
          : hand.length === 0 ? 'the hand is empty' : `hand: ${hand.map(cardName).join(', ')}`),
      h('div', { class: 'row' }, labelledSelect('Card', id, offered, offered.map((c) => `${cardName(c)} (${c})`)),
        h('button', {
          type: 'button', 'data-op': 'tap', disabled: offered.length === 0,
          onclick: () => {
            const card = (box.querySelector(`#${CSS.escape(id)}`) as HTMLSelectElement).value;
            void this.kit.simulate(`${who}: ${cardName(card)} tapped`, { station, op: 'tap', item: cardItem(card) });
          },
        }, 'Tap card')),
      h('div', { class: 'row' }, stationControls(this.kit, station, options.pile !== true)));
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
      void sendRequest(this.kit.ctx.table, 'simulated-hand', { station }).then((r) => {
        const data = r.data as { known?: boolean; cards?: string[] } | undefined;
        entry.cards = r.ok && data?.known === true && Array.isArray(data.cards) ? data.cards : null;
        this.signature = '';
        // An answer arriving after the page left the game changes nothing.
        if (!this.destroyed) this.update();
      });
    }
  }

  update(): void {
    const view = zipView(this.kit.ctx);
    if (view === undefined) return;
    const seats = this.kit.seats(view.players.map((p) => p.id));
    const humans = new Set(seats.filter((s) => s.bot !== true).map((s) => s.id));
    const waiting = zipWaitingFor(view, namesOf(this.kit.ctx.store, this.kit.ctx.table), humans);
    this.kit.waiting(waiting.text, waiting.players.some((p) => humans.has(p)));
    this.refreshHands(view, seats);
    const hands = [...this.hands.entries()].map(([station, e]) => `${station}:${e.cards?.join('.') ?? '-'}`).join(',');
    // Rebuilt only when the seats, the suits, the stations or a hand change, keeping the chosen cards.
    const signature = `${view.players.map((p) => p.id).join(',')}|${view.suits.join(',')}|${onlineSignature(this.kit.ctx)}|${hands}`;
    if (signature === this.signature) return;
    this.signature = signature;
    const numbers = view.suits.flatMap((suit) => Array.from({ length: 10 }, (_, i) => `${LETTER[suit] ?? '?'}${i + 1}`));
    const pile = this.kit.ctx.store.bridgeEntry(this.kit.ctx.table)?.pileStation;
    // Cards played on the pile belong to whoever holds them: every card is listed there.
    const zaps = seats.map((_, i) => `Z${i + 1}`);
    keepChoices(this.element, () => {
      replace(this.element, seats.map((seat, i) => this.seat(seat, [...numbers, `Z${i + 1}`])),
        pile === undefined ? null : this.seat({ id: 'pile', name: 'Pile', station: pile }, [...numbers, ...zaps], { pile: true }));
    });
  }

  destroy(): void {
    this.destroyed = true;
  }
}
