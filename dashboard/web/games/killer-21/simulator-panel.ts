/**
 * The Killer-21 simulator panel: per seat, put a card on the pile station or on the seat's pad (as the table
 * reads them: a card landing on the pile during P's turn is P's play, a red 0 on P's own pad answers the Killer;
 * docs/rules/killer-21.md C-K.2), press the seat's ZAP button ("I can't" on a turn, "I have no red 0" in a
 * Killer window), put a life chip on the pad or take one off, unplug the station. "Put" taps a card (it lands
 * and leaves again, as a played card does); "Lay" leaves it lying on the pad, as a player lays a hand dealt at
 * the table down to register it (C-K.3), and "Pick up" takes the laid cards back. Each control is a `simulate`
 * request; its outcome line shows what the table made of it (outcome.ts): the events, or the refusal with its
 * code and reason — an accepted request whose action the engine refused is not "ok".
 *
 * The card picker offers the kinds and copies the table's deck holds (its configured `rules.deck` over the
 * default composition); a seat's hand is shown only on asking, with the token (`simulated-hand`), and never for
 * a bot's seat: without the token the page knows no hand.
 *
 * A card put on the pile is the play of whoever is on turn, whichever seat's button put it there: the answer
 * names that player. A card laid on the pad while the hands are registered changes nothing yet, but it counts:
 * the answer says so rather than "nothing to do".
 */
import { sendRequest } from '../../api.ts';
import { namedText } from '../../names.ts';
import { h, replace } from '../../dom.ts';
import type { BridgeSeat } from '../../types.ts';
import type { GamePart, SimulatorKit } from '../game-ui.ts';
import { copiesOf, DEFAULT_DECK, type CardKind, type DeckComposition } from '../../../../controller/rules/killer-21/cards.ts';
import { cardLabel, KINDS, kindName } from './card-names.ts';
import { outcomeAfter, type PanelOutcome } from './outcome.ts';
import { k21View, namer } from './page.ts';
import { bannerText, refusalText } from './text.ts';

/** How long the outcome line waits for the table's events before saying it saw none. */
const OUTCOME_WAIT_MS = 6000;

/** The items a simulated station reads (runtime/registry/items.ts): a Killer-21 card by its id, a tagged life chip. */
const cardItem = (card: string): Record<string, unknown> => ({ kind: 'k21', card });
const chipItem = (chip: number): Record<string, unknown> => ({ kind: 'chip', chip });
/** The tagged chips of the simulated box (CHIP_COUNT in the registry: 5 lives for 7 players, and a spare). */
const CHIPS = 36;

interface Pending {
  readonly what: string;
  readonly afterSeq: number;
  readonly sentAt: number;
  /**
   * When the controller answers `simulate` after the table has handled the op (its answer's `seq`, `outcome`
   * and `message`), the outcome is the events up to that seq, or that message when there were none.
   */
  readonly untilSeq?: number;
  readonly message?: string;
  readonly outcome?: string;
  /** Whose action the table makes of it (the player on turn for a card on the pile), named in a refusal. */
  readonly actor?: string;
  /** What to say when the table changed nothing (a laid card that counts toward registering a hand). */
  readonly quiet?: string;
}

/** What `simulate` sends besides the request: whose action it becomes, what a quiet answer means. */
interface SendNote {
  readonly actor?: string;
  readonly quiet?: string;
}

/** A seat's hand on show: where, how a card picks itself, and the state seq it was read at. */
interface ShownHand {
  readonly box: HTMLElement;
  readonly pick: (card: string) => void;
  seq: number;
}

/** The optional fields of a `simulate` answer that waited for the table (docs/mqtt.md). */
function answered(data: unknown): { seq?: number; outcome?: string; message?: string } {
  if (typeof data !== 'object' || data === null) return {};
  const d = data as Record<string, unknown>;
  return {
    ...(typeof d.seq === 'number' ? { seq: d.seq } : {}),
    ...(typeof d.outcome === 'string' ? { outcome: d.outcome } : {}),
    ...(typeof d.message === 'string' ? { message: d.message } : {}),
  };
}

export class Killer21SimulatorPanel implements GamePart {
  readonly element = h('div', { class: 'k21-sim' });
  private readonly outcome = h('p', { class: 'result', role: 'status', 'aria-live': 'polite', 'data-testid': 'k21-outcome', 'data-answers': 0 });
  private readonly seatsHost = h('div', { class: 'sim-seats' });
  private signature = '';
  private pending: Pending | undefined;
  private answers = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The chips this panel has put on each station's pad, by tag number. Chips are interchangeable (only their
   * count matters), but each has its own tag, so taking one off lifts one that lies there.
   */
  private readonly chips = new Map<string, number[]>();
  /** The cards this panel has laid on each station's pad and left there (to register a hand), in order. */
  private readonly laid = new Map<string, string[]>();
  /** The stations whose hand is shown (asked for with the token), and the state seq it was read at. */
  private readonly handsShown = new Map<string, ShownHand>();

  constructor(private readonly kit: SimulatorKit) {
    this.element.append(
      h('p', { class: 'muted' }, 'Killer-21: a card on the pile is the play of whoever is on turn; a red 0 on your own pad answers the Killer; '
        + 'the ZAP button says "I can\'t" (or "no red 0" during the Killer); chips are your lives.'),
      this.outcome, this.seatsHost);
  }

  private get table(): string {
    return this.kit.ctx.table;
  }

  /** The seq of the table's newest event (or state): what the action's outcome comes after. */
  private lastSeq(): number {
    const t = this.kit.ctx.store.table(this.table);
    return Math.max(t.state?.seq ?? -1, t.events.at(-1)?.seq ?? -1);
  }

  private show(kind: 'busy' | 'ok' | 'error', text: string, code?: string): void {
    if (kind !== 'busy') this.outcome.setAttribute('data-answers', String(++this.answers));
    this.outcome.className = `result ${kind}`;
    if (code === undefined) this.outcome.removeAttribute('data-code');
    else this.outcome.setAttribute('data-code', code);
    this.outcome.textContent = text;
  }

  /** Sends one simulated action; resolves whether the station took it (its outcome comes from the events). */
  private async simulate(what: string, params: Record<string, unknown>, note: SendNote = {}): Promise<boolean> {
    this.finish();
    const afterSeq = this.lastSeq();
    this.show('busy', `${what}: sending…`);
    const r = await sendRequest(this.table, 'simulate', params);
    if (!r.ok) {
      // In words (refusal-text.ts), ids said as names: the code stays in data-code.
      this.show('error', `${what}: refused — ${namedText(this.kit.ctx.store, this.table)(refusalText(r.code ?? 'ERROR', r.message))}`, r.code ?? 'ERROR');
      return false;
    }
    const a = answered(r.data);
    this.pending = {
      what, afterSeq, sentAt: Date.now(),
      ...(a.seq === undefined ? {} : { untilSeq: a.seq }), ...(a.message === undefined ? {} : { message: a.message }),
      ...(a.outcome === undefined ? {} : { outcome: a.outcome }), ...note,
    };
    this.show('busy', `${what}: read by the station, waiting for the table…`);
    this.timer = setTimeout(() => {
      this.checkOutcome();
    }, OUTCOME_WAIT_MS);
    this.checkOutcome();
    return true;
  }

  private finish(): void {
    this.pending = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Shows the outcome of the pending action once its events are in (the state follows its events). */
  private checkOutcome(): void {
    const p = this.pending;
    if (p === undefined) return;
    const t = this.kit.ctx.store.table(this.table);
    const last = Math.max(t.state?.seq ?? -1, t.events.at(-1)?.seq ?? -1);
    if (p.untilSeq !== undefined) {
      // The table has answered for it: its events are those up to `untilSeq`, final once they are all here.
      if (last < p.untilSeq && Date.now() - p.sentAt < OUTCOME_WAIT_MS) return;
      const o = outcomeAfter(t.events.filter((e) => e.seq <= (p.untilSeq ?? 0)), p.afterSeq, namer(this.kit.ctx), p.actor);
      const quiet = p.outcome === 'unchanged' && p.quiet !== undefined ? p.quiet : p.message ?? 'nothing changed';
      if (o.kind === 'pending') this.show('ok', `${p.what}: ${quiet}`, (p.outcome ?? 'done').toUpperCase());
      else this.show(o.kind === 'applied' ? 'ok' : 'error', `${p.what}: ${o.text}`, o.kind === 'applied' ? 'APPLIED' : o.code);
      this.finish();
      return;
    }
    const o: PanelOutcome = outcomeAfter(t.events, p.afterSeq, namer(this.kit.ctx), p.actor);
    if (o.kind === 'pending') {
      if (Date.now() - p.sentAt >= OUTCOME_WAIT_MS) {
        this.show('ok', `${p.what}: read, but the table made no event of it`, 'NO_EVENT');
        this.finish();
      }
      return;
    }
    this.show(o.kind === 'applied' ? 'ok' : 'error', `${p.what}: ${o.text}`, o.kind === 'applied' ? 'APPLIED' : o.code);
    // Later events of the same batch may still come; the outcome is final once the state has caught up.
    if ((t.state?.seq ?? -1) >= (t.events.at(-1)?.seq ?? -1)) this.finish();
  }

  /** Puts a free chip on the pad, or takes the last one put there off. */
  private async chip(station: string, who: string, op: 'place' | 'lift'): Promise<void> {
    const mine = this.chips.get(station) ?? [];
    this.chips.set(station, mine);
    if (op === 'lift') {
      const chip = mine.pop();
      if (chip === undefined) {
        this.show('error', `${who}: no chip on the pad (put one first)`, 'NO_CHIP');
        return;
      }
      if (!await this.simulate(`${who}: take a chip (${mine.length} left)`, { station, op: 'lift', item: chipItem(chip) })) mine.push(chip);
      return;
    }
    const used = new Set([...this.chips.values()].flat());
    const chip = Array.from({ length: CHIPS }, (_, i) => i + 1).find((c) => !used.has(c));
    if (chip === undefined) {
      this.show('error', `${who}: all ${CHIPS} chips are on the pads`, 'NO_CHIP');
      return;
    }
    mine.push(chip);
    if (!await this.simulate(`${who}: put a chip (${mine.length} on the pad)`, { station, op: 'place', item: chipItem(chip) })) mine.pop();
  }

  /** Lays a card on the pad and leaves it there (`place`): a hand dealt at the table is registered this way. */
  private async lay(station: string, who: string, player: string, card: string): Promise<void> {
    const mine = this.laid.get(station) ?? [];
    this.laid.set(station, mine);
    if (mine.includes(card)) {
      this.show('error', `${who}: ${card} already lies on the pad`, 'ON_PAD');
      return;
    }
    mine.push(card);
    const quiet = this.registering(player)
      ? `the card lies on ${who}'s pad and counts toward registering the hand (${mine.length} laid; the hand is registered once all its cards lie there)`
      : undefined;
    if (!await this.simulate(`${who}: ${card} laid on the pad (${mine.length} there)`, { station, op: 'place', item: cardItem(card) },
      quiet === undefined ? {} : { quiet })) mine.pop();
  }

  /** Whether the table waits for this player's hand to be laid down (after a table deal, or for a tie-break). */
  private registering(player: string): boolean {
    const view = k21View(this.kit.ctx);
    return view !== undefined && (view.registering.includes(player) || (view.scoring?.pending[player] ?? 0) > 0);
  }

  /** The deck the table plays: its configured composition (bridge/tables `rules.deck`) over the default one. */
  private deck(): DeckComposition {
    const configured = this.kit.ctx.store.bridgeEntry(this.table)?.rules?.deck;
    return typeof configured === 'object' && configured !== null ? { ...DEFAULT_DECK, ...configured as Partial<DeckComposition> } : DEFAULT_DECK;
  }

  /** Picks every laid card up again, last first. */
  private async pickUp(station: string, who: string): Promise<void> {
    const mine = this.laid.get(station) ?? [];
    if (mine.length === 0) {
      this.show('error', `${who}: no card lies on the pad (lay one first)`, 'NO_CARD');
      return;
    }
    for (let card = mine.at(-1); card !== undefined; card = mine.at(-1)) {
      if (!await this.simulate(`${who}: ${card} picked up (${mine.length - 1} left)`, { station, op: 'lift', item: cardItem(card) })) return;
      mine.pop();
    }
  }

  /**
   * The seat's hand, from the `simulated-hand` request: answered only to the token (the dashboard refuses it
   * without, with UNAUTHORIZED) and only for a seat played from the panel, never a bot's. Each card picks itself.
   */
  private async showHand(station: string): Promise<void> {
    const shown = this.handsShown.get(station);
    if (shown === undefined) return;
    shown.seq = this.kit.ctx.store.table(this.table).state?.seq ?? -1;
    const r = await sendRequest(this.table, 'simulated-hand', { station });
    const data = r.data as { cards?: unknown; known?: unknown } | undefined;
    if (!r.ok || !Array.isArray(data?.cards)) {
      replace(shown.box, h('span', { class: 'muted' }, `hand: ${r.code ?? 'ERROR'} — ${r.message}`));
      return;
    }
    const cards = (data.cards as unknown[]).filter((c): c is string => typeof c === 'string');
    replace(shown.box, cards.length === 0 ? h('span', { class: 'muted' }, data.known === false ? 'hand not known to the table' : 'no cards')
      : cards.map((c) => h('button', { type: 'button', class: 'secondary k21-hand-card', 'data-card': c, onclick: () => {
          shown.pick(c);
        } }, cardLabel(c))));
  }

  private seat(seat: BridgeSeat, pile: string | undefined): HTMLElement {
    const station = seat.station ?? seat.id;
    const who = seat.name ?? seat.id;
    const kindId = `k21-kind-${station}`;
    const copyId = `k21-copy-${station}`;
    // Only what the table's deck holds: its kinds, and for the chosen kind its copies.
    const deck = this.deck();
    const kind = h('select', { id: kindId, 'data-role': 'kind' }, KINDS.filter((k) => copiesOf(deck, k) > 0).map((k) => h('option', { value: k }, kindName(k))));
    const copy = h('select', { id: copyId, 'data-role': 'copy' });
    const copies = (): void => {
      const chosen = copy.value;
      replace(copy, Array.from({ length: copiesOf(deck, kind.value as CardKind) }, (_, i) => h('option', { value: i + 1 }, String(i + 1))));
      if ([...copy.options].some((o) => o.value === chosen)) copy.value = chosen;
    };
    kind.addEventListener('change', copies);
    copies();
    const card = (): string => `${kind.value}-${copy.value}`;
    const pick = (id: string): void => {
      const [k, n] = id.split('-');
      kind.value = k ?? kind.value;
      copies();
      copy.value = n ?? copy.value;
    };
    // A card on the pile is the play of whoever is on turn (C-K.2), whichever seat's button put it there.
    const onTurn = (): string | undefined => {
      const turn = k21View(this.kit.ctx)?.turn;
      return turn === null || turn === undefined ? undefined : namer(this.kit.ctx)(turn);
    };
    const handBox = h('div', { class: 'row k21-hand-cards', 'aria-label': `${who}'s hand`, role: 'group', 'aria-live': 'polite' });
    this.handsShown.delete(station);
    const online = this.kit.ctx.store.table(this.table).health.get(station)?.online;
    const button = (label: string, op: string, what: () => string, params: () => Record<string, unknown>, cls = ''): HTMLElement =>
      h('button', { type: 'button', class: cls, 'data-op': op, onclick: () => void this.simulate(what(), params()) }, label);
    return h('section', { class: 'panel sim-seat', 'data-seat': seat.id, 'aria-label': `Seat ${who}` },
      h('h2', {}, `${who} `, h('span', { class: 'muted' }, station)),
      seat.bot === true ? h('p', { class: 'muted', 'data-testid': `bot-${seat.id}` }, 'a bot plays this seat') : null,
      h('div', { class: 'row' },
        h('span', { class: 'field inline' }, h('label', { for: kindId }, 'Card'), kind),
        h('span', { class: 'field inline' }, h('label', { for: copyId }, 'Copy'), copy)),
      h('div', { class: 'row' },
        pile === undefined ? null : h('button', {
          type: 'button', 'data-op': 'pile',
          onclick: () => {
            const actor = onTurn();
            void this.simulate(`${card()} on the pile${actor === undefined ? '' : ` (${actor}'s play: ${actor} is on turn)`}`,
              { station: pile, op: 'tap', item: cardItem(card()) }, actor === undefined ? {} : { actor });
          },
        }, 'Put on the pile'),
        h('button', { type: 'button', 'data-op': 'pad', onclick: () => void this.simulate(`${who}: ${card()} on the pad`, { station, op: 'tap', item: cardItem(card()) }, { actor: who }) },
          'Put on own pad')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'secondary', 'data-op': 'lay', onclick: () => void this.lay(station, who, seat.id, card()) }, 'Lay on own pad'),
        h('button', { type: 'button', class: 'secondary', 'data-op': 'pick-up', onclick: () => void this.pickUp(station, who) }, 'Pick up laid cards')),
      h('div', { class: 'row' },
        h('button', {
          type: 'button', class: 'secondary', 'data-op': 'hand',
          onclick: () => {
            this.handsShown.set(station, { box: handBox, pick, seq: -1 });
            void this.showHand(station);
          },
        }, 'Show hand (token)')),
      handBox,
      h('div', { class: 'row' },
        h('button', { type: 'button', 'data-op': 'press', onclick: () => void this.simulate(`${who}: ZAP button`, { station, op: 'press' }, { actor: who }) },
          'Press ZAP (I can\'t)'),
        h('button', { type: 'button', class: 'secondary', 'data-op': 'chip-place', onclick: () => void this.chip(station, who, 'place') }, 'Put a chip'),
        h('button', { type: 'button', class: 'secondary', 'data-op': 'chip-lift', onclick: () => void this.chip(station, who, 'lift') }, 'Take a chip'),
        online === false
          ? button('Plug in', 'plug', () => `${station}: plug in`, () => ({ station, op: 'plug' }))
          : button('Unplug', 'unplug', () => `${station}: unplug`, () => ({ station, op: 'unplug' }), 'secondary')));
  }

  update(): void {
    this.checkOutcome();
    const seq = this.kit.ctx.store.table(this.table).state?.seq ?? -1;
    for (const [station, shown] of this.handsShown) if (shown.seq !== seq) void this.showHand(station);
    const view = k21View(this.kit.ctx);
    if (view === undefined) return;
    // The page's "waiting for" line: the game's banner, marked as yours when the table waits for a seat
    // played from here (not a bot's).
    const humans = this.kit.seats(view.players.map((p) => p.id)).filter((s) => s.bot !== true).map((s) => s.id);
    const waitedFor = view.phase === 'TURN' ? [view.turn] : view.phase === 'KILLER' ? view.killer?.required ?? [] : view.registering;
    this.kit.waiting(`Waiting for: ${bannerText(view, namer(this.kit.ctx))}`, waitedFor.some((p) => p !== null && humans.includes(p)));
    const t = this.kit.ctx.store.table(this.table);
    const online = [...t.health.values()].map((s) => `${s.station}:${s.online}`).join(',');
    const pile = this.kit.ctx.store.bridgeEntry(this.table)?.pileStation;
    // Rebuilt only when the seats or the stations change (and then the chosen cards are kept).
    const signature = `${view.players.map((p) => p.id).join(',')}|${pile ?? ''}|${online}|${JSON.stringify(this.deck())}`;
    if (signature === this.signature) return;
    this.signature = signature;
    const chosen = new Map([...this.seatsHost.querySelectorAll('select')].map((sel) => [sel.id, sel.value]));
    replace(this.seatsHost, this.kit.seats(view.players.map((p) => p.id)).map((seat) => this.seat(seat, pile)));
    for (const sel of this.seatsHost.querySelectorAll('select')) {
      sel.value = chosen.get(sel.id) ?? sel.value;
      // A kind chosen again offers its copies again (before the copy select, which follows it, is set).
      if (sel.dataset.role === 'kind') sel.dispatchEvent(new Event('change'));
    }
  }

  destroy(): void {
    this.finish();
  }
}
