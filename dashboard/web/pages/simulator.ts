/**
 * The simulator panel, for a table on simulated hardware: per seat, the game's own controls (its simulator part,
 * `games/<id>/`: place or lift a barrel, tap a card, put a chip…), the seat's ZAP button, unplug or plug the
 * station back, so anyone can play a round from the browser. Each control is a `simulate` request
 * `{station, op, item?, grams?}`; the controller turns it into the sensor input the real station would send (the
 * tag of the item, its weight).
 *
 * Every answer is the table's verdict, not "sent": the controller answers once the table has handled what the
 * station sent (accepted, a violation, nothing to do, or refused with its code and sentence). The page says it
 * in the game's own sentences: the events the op led to (the answer's `seq` and event types name them) as the
 * game pages word them, players and stations by name, a refusal in words (refusal-text.ts).
 *
 * Above the seats: what the table waits for (said by the game's part), so a person sitting in for a seat sees
 * when it is their turn. A buzzer table gets one "press" per contestant from this page itself.
 */
import { sendRequest } from '../api.ts';
import { describeEvent, resultLine, tokenForm, type Wording } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { GamePart, SimulatorKit } from '../games/game-ui.ts';
import { gameUi } from '../games/registry.ts';
import { namedText, namesOf } from '../names.ts';
import type { PageContext } from '../page.ts';
import { onlineSignature, stationControls } from '../sim-controls.ts';
import type { BridgeSeat, BuzzerView, PublicEventJson } from '../types.ts';

/** How long an answer waits for the events it names to reach the page before it is shown without them. */
const EVENTS_WAIT_MS = 3000;

/** A `simulate` answer waiting for its events: what was done, the events after `afterSeq` up to `untilSeq`. */
interface PendingAnswer {
  readonly what: string;
  readonly afterSeq: number;
  readonly untilSeq: number;
  readonly types: ReadonlySet<string>;
  readonly outcome: string;
  readonly answer: Parameters<ReturnType<typeof resultLine>['show']>[1];
  readonly timer: ReturnType<typeof setTimeout>;
}

export class SimulatorPage {
  readonly element = h('div', { class: 'simulator' });
  private readonly result = resultLine();
  private readonly seatsHost = h('div', { class: 'sim-seats' });
  private readonly waiting = h('p', { class: 'panel waiting', role: 'status', 'data-testid': 'waiting' });
  /** What the buzzer seats were drawn for: they are redrawn only when it changes. */
  private signature = '';
  /** A `simulate` answer waiting for the events it names. */
  private pending: PendingAnswer | undefined;
  /** The running game's own seats part (games/registry.ts), while its game runs. */
  private part: { readonly game: string; readonly part: GamePart } | undefined;
  private readonly kit: SimulatorKit;

  constructor(private readonly ctx: PageContext) {
    this.kit = {
      ctx,
      seats: (players) => this.seats(players),
      simulate: (what, params) => this.simulate(what, params),
      waiting: (text, you = false) => {
        if (this.waiting.textContent !== text) this.waiting.textContent = text;
        this.waiting.classList.toggle('you', you);
      },
    };
    this.element.append(h('h1', {}, `Simulator — ${ctx.table}`),
      h('p', { class: 'muted' }, 'Acts like hands at the table: the controller receives what the stations would send. Needs the referee token.'),
      tokenForm(), this.result.element, this.waiting, this.seatsHost);
  }

  private async simulate(what: string, params: Record<string, unknown>): Promise<void> {
    const t = this.ctx.store.table(this.ctx.table);
    const afterSeq = Math.max(t.state?.seq ?? -1, t.events.at(-1)?.seq ?? -1);
    this.result.busy(what);
    const r = await sendRequest(this.ctx.table, 'simulate', params);
    const data = r.data as { seq?: unknown; outcome?: unknown; events?: unknown } | undefined;
    const types = Array.isArray(data?.events) ? data.events.filter((e): e is string => typeof e === 'string' && e !== 'NOTICE') : [];
    if (this.pending !== undefined) this.answerNow();
    if (!r.ok || typeof data?.seq !== 'number' || types.length === 0) {
      this.result.show(what, r, this.wording());
      return;
    }
    this.pending = {
      what, afterSeq, untilSeq: data.seq, types: new Set(types), outcome: typeof data.outcome === 'string' ? data.outcome : 'applied', answer: r,
      timer: setTimeout(() => {
        this.answerNow();
      }, EVENTS_WAIT_MS),
    };
    this.answerWhenHere();
  }

  /** The running game's refusal sentences and the table's names (refusal-text.ts, names.ts). */
  private wording(): Wording {
    const state = this.ctx.store.table(this.ctx.table).state;
    const ui = state?.mode === 'game' ? gameUi(state.game) : undefined;
    return { ...(ui === undefined ? {} : { refusals: ui.refusals }), named: namedText(this.ctx.store, this.ctx.table) };
  }

  /** Answers the pending op once its events have reached the page. */
  private answerWhenHere(): void {
    const p = this.pending;
    if (p === undefined) return;
    const t = this.ctx.store.table(this.ctx.table);
    if ((t.events.at(-1)?.seq ?? -1) >= p.untilSeq) this.answerNow();
  }

  /** The pending op's answer: its events in the game's sentences, or the controller's words when none arrived. */
  private answerNow(): void {
    const p = this.pending;
    if (p === undefined) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    const events = this.ctx.store.table(this.ctx.table).events
      .filter((e) => e.seq > p.afterSeq && e.seq <= p.untilSeq && p.types.has(e.type));
    if (events.length === 0) {
      this.result.show(p.what, p.answer, this.wording());
      return;
    }
    const state = this.ctx.store.table(this.ctx.table).state;
    const ui = state?.mode === 'game' ? gameUi(state.game) : undefined;
    const nameOf = namesOf(this.ctx.store, this.ctx.table);
    const named = namedText(this.ctx.store, this.ctx.table);
    const line = (e: PublicEventJson): string => named(ui?.describeEvent?.(e, nameOf) ?? describeEvent(e, nameOf, ui?.refusals));
    this.result.say(`${p.what}: ${events.slice(0, 4).map(line).join('; ')}`, true, p.outcome);
  }

  /** The seats with their stations: from `bridge/tables` when published, else the conventional `seat-N`. */
  private seats(players: readonly string[]): BridgeSeat[] {
    const bridge = this.ctx.store.bridgeEntry(this.ctx.table);
    if (bridge?.seats !== undefined && bridge.seats.length > 0) return [...bridge.seats];
    return players.map((id, i) => ({ id, station: `seat-${i + 1}` }));
  }

  /** A buzzer table: one "press" button per contestant's station. */
  private buzzerSeats(view: BuzzerView): void {
    const signature = `buzzer|${view.contestants.map((c) => c.station).join(',')}|${onlineSignature(this.ctx)}`;
    if (signature === this.signature) return;
    this.signature = signature;
    replace(this.seatsHost, view.contestants.map((c) => h('section', { class: 'panel sim-seat', 'data-seat': c.id, 'aria-label': `Buzzer ${c.name}` },
      h('h2', {}, `${c.name} `, h('span', { class: 'muted' }, c.station)),
      h('div', { class: 'row' },
        h('button', { type: 'button', 'data-op': 'press', onclick: () => void this.simulate(`${c.name}: buzz`, { station: c.station, op: 'press' }) }, 'Press buzzer'),
        stationControls(this.kit, c.station).slice(1)))));
  }

  /** Leaves the running game's part (another game, a buzzer, no game). */
  private dropPart(): void {
    this.part?.part.destroy?.();
    this.part = undefined;
  }

  destroy(): void {
    if (this.pending !== undefined) clearTimeout(this.pending.timer);
    this.pending = undefined;
    this.dropPart();
  }

  update(): void {
    this.answerWhenHere();
    const state = this.ctx.store.table(this.ctx.table).state;
    this.waiting.hidden = state?.mode !== 'game';
    if (state?.mode === 'buzzer') {
      this.dropPart();
      this.buzzerSeats(state.buzzer);
      return;
    }
    const ui = state?.mode === 'game' ? gameUi(state.game) : undefined;
    if (ui === undefined) {
      this.dropPart();
      replace(this.seatsHost, h('p', { class: 'muted' }, state?.mode === 'game'
        ? `This dashboard has no simulator for the game ${state.game}.` : 'No game is running: start one on the referee page.'));
      this.signature = '';
      return;
    }
    if (this.part?.game !== ui.id) {
      // Another game: its part replaces the old one; inside one game the part is kept (and keeps its choices).
      this.dropPart();
      this.kit.waiting('');
      this.part = { game: ui.id, part: ui.simulator(this.kit) };
      replace(this.seatsHost, this.part.part.element);
      this.signature = '';
    }
    this.part.part.update();
  }
}
