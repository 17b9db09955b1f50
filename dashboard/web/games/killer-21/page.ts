/**
 * The Killer-21 page (`#/table/<id>` of a table playing killer-21): the running total large with the limit,
 * the direction and whose turn it is; per seat the lives as chips, the hand size (never a card: the public
 * view has only counts) and who deals; the Killer window with a live countdown and every answer, and a red 0 on
 * the deadline waiting for the referee with its figures; the top of the pile, lost lives, the result and the
 * recent events with their text (refusals and notices with their reason).
 */
import { botBadge, rulesBox, statusBadge } from '../../common.ts';
import { clock, h, replace } from '../../dom.ts';
import { inTimeOrder } from '../../event-order.ts';
import { botsOf, namedText, namesOf } from '../../names.ts';
import type { Page, PageContext } from '../../page.ts';
import type { PublicEventJson } from '../../types.ts';
import { cardColour, cardName } from './card-names.ts';
import { K21_RULES } from './rules.ts';
import {
  answerText, bannerText, countdownFraction, countdownText, describeK21Event, directionText, lossText, ties, zeroTieSentence,
  type Killer21PublicView, type PublicKillerWindow,
} from './text.ts';

/**
 * The banner's colour per phase: play (race), waiting for answers or hands (paused: the Killer window, the
 * tie-break on unseen hands), a round about to start (start: hands dealt at the table being registered), over.
 */
const BANNER: Readonly<Record<Killer21PublicView['phase'], string>> = {
  TURN: 'race', KILLER: 'paused', SCORING: 'paused', DEALING: 'start', ROUND_OVER: 'over', GAME_OVER: 'over',
};

/** How often the countdown is redrawn while a timed window is open (the rest redraws on changes only). */
const TICK_MS = 100;

export function k21View(ctx: PageContext): Killer21PublicView | undefined {
  const state = ctx.store.table(ctx.table).state;
  if (state?.mode !== 'game' || state.game !== 'killer-21') return undefined;
  return state.view as unknown as Killer21PublicView;
}

/** A seat's name as configured (bridge/tables), else its player id (names.ts, the one place for names). */
export function seatName(ctx: PageContext, player: string): string {
  return namesOf(ctx.store, ctx.table)(player);
}

/** The namer of this table's seats, for the texts (text.ts). */
export function namer(ctx: PageContext): (player: string) => string {
  return namesOf(ctx.store, ctx.table);
}

export function cardFace(card: string, size: 'big' | 'small', by?: string | null): HTMLElement {
  return h('div', { class: `k21-card ${size} ${cardColour(card)}`, 'data-card': card, role: 'img', 'aria-label': cardName(card) },
    h('span', { class: 'k21-card-name' }, cardName(card)),
    by === undefined ? null : h('span', { class: 'k21-card-by' }, by ?? 'placed'));
}

function chips(lives: number, out: boolean): HTMLElement {
  const label = out ? 'out' : `${lives} ${lives === 1 ? 'life' : 'lives'}`;
  return h('span', { class: 'k21-chips', role: 'img', 'aria-label': label, 'data-lives': lives },
    Array.from({ length: Math.min(lives, 12) }, () => h('span', { class: 'k21-chip', 'aria-hidden': 'true' })),
    h('span', { class: 'k21-chips-count', 'aria-hidden': 'true' }, label));
}

/** The Killer countdown: its text and bar, redrawn every tick without rebuilding the page. */
class Countdown {
  readonly element = h('div', { class: 'k21-countdown' });
  private readonly text = h('p', { class: 'k21-countdown-text', role: 'timer', 'aria-live': 'off', 'data-testid': 'k21-countdown' });
  private readonly bar = h('progress', { max: 1000, 'aria-label': 'time left to answer' });
  private window: PublicKillerWindow | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    this.element.append(this.text, this.bar);
  }

  set(w: PublicKillerWindow | null): void {
    this.window = w;
    this.draw();
    const ticking = w !== null && !w.closed && w.deadline !== null;
    if (ticking && this.timer === undefined) {
      this.timer = setInterval(() => {
        this.draw();
      }, TICK_MS);
    } else if (!ticking) this.stop();
  }

  private draw(): void {
    const w = this.window;
    if (w === null) return;
    const now = Date.now();
    this.text.textContent = countdownText(w, now);
    this.bar.value = Math.round(countdownFraction(w, now) * 1000);
    this.bar.hidden = w.closed || w.deadline === null;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

export class Killer21Page implements Page {
  readonly element = h('div', { class: 'game k21' });
  private readonly countdown = new Countdown();
  /** Built once, so that it stays open across updates. */
  private readonly rules = rulesBox('Killer-21', K21_RULES, 'docs/rules/killer-21.md (rules K21-n)');

  constructor(private readonly ctx: PageContext) {}

  private killerPanel(view: Killer21PublicView): HTMLElement | null {
    const w = view.killer;
    this.countdown.set(w);
    if (w === null) return null;
    const tied = ties(w);
    return h('section', { class: 'panel k21-killer', 'aria-label': 'Killer window', 'data-testid': 'k21-killer' },
      h('h2', {}, `Killer by ${seatName(this.ctx, w.by)}`),
      this.countdown.element,
      h('ul', { class: 'k21-answers' }, w.required.map((p) => {
        const a = w.answers[p];
        return h('li', { class: `answer-${(a?.status ?? 'PENDING').toLowerCase()}`, 'data-testid': `k21-answer-${p}`, 'data-status': a?.status ?? 'PENDING' },
          h('span', { class: 'player-name' }, seatName(this.ctx, p)), ' ', answerText(a));
      })),
      tied.length === 0 ? null : h('div', { class: 'tie', 'data-testid': 'k21-ties' },
        tied.map((p) => h('p', { 'data-testid': `k21-tie-${p}` }, `${zeroTieSentence(p, w, namer(this.ctx))} The referee decides.`))));
  }

  private players(view: Killer21PublicView): HTMLElement {
    return h('section', { class: 'panel k21-players', 'aria-label': 'Players' },
      h('h2', {}, 'Players'),
      h('ul', { class: 'player-list' }, view.players.map((p) => h('li', {
        class: `${p.onTurn && view.phase === 'TURN' ? 'controller' : ''}${p.out ? ' out' : ''}`, 'data-testid': `k21-player-${p.id}`,
      },
      h('span', { class: 'player-name' }, seatName(this.ctx, p.id)), botBadge(botsOf(this.ctx.store, this.ctx.table), p.id),
      // In a Killer window `turn` is still the Killer's player, but nobody plays until it is settled.
      p.onTurn && view.phase === 'TURN' ? h('span', { class: 'badge control' }, 'to play') : null,
      p.dealer ? h('span', { class: 'badge sim' }, 'dealer') : null,
      chips(p.lives, p.out),
      h('span', { class: 'k21-hand' },
        h('span', { class: 'count', 'data-testid': `k21-count-${p.id}` }, String(p.handCount)),
        p.handCount === 1 ? ' card' : ' cards',
        // Cards dealt at the table (C-K.3): how many of them no reader has seen yet.
        p.unseenCount > 0 ? h('span', { class: 'muted', 'data-testid': `k21-unseen-${p.id}` }, ` (${p.unseenCount} unseen)`) : null,
        view.registering.includes(p.id) ? h('span', { class: 'badge sim', 'data-testid': `k21-registering-${p.id}` }, 'registering') : null)))));
  }

  private result(view: Killer21PublicView): HTMLElement | null {
    if (view.phase !== 'GAME_OVER' && view.phase !== 'ROUND_OVER') return null;
    const winners = view.phase === 'GAME_OVER' ? view.winners : view.roundWinners.at(-1) ?? [];
    return h('section', { class: 'panel k21-result', 'aria-label': 'Result', 'data-testid': 'k21-result' },
      h('h2', {}, view.phase === 'GAME_OVER' ? 'Result' : `Round ${view.round}`),
      h('p', { class: 'winner' }, winners.length === 0 ? 'nobody' : winners.map((p) => seatName(this.ctx, p)).join(', ')),
      view.roundWinners.length === 0 ? null : h('ol', { class: 'k21-rounds' },
        view.roundWinners.map((w, i) => h('li', {}, `Round ${i + 1}: ${w.join(', ')}`))));
  }

  private events(events: readonly PublicEventJson[]): HTMLElement {
    // In the order things happened (event-order.ts), station ids said as whose pad (names.ts).
    const recent = inTimeOrder(events.slice(-14)).reverse();
    const named = namedText(this.ctx.store, this.ctx.table);
    return h('section', { class: 'panel events', 'aria-label': 'Recent events' },
      h('h2', {}, 'Recent events'),
      recent.length === 0 ? h('p', { class: 'muted' }, 'none yet') :
          h('ol', { class: 'event-list', 'data-testid': 'k21-events' }, recent.map((e) => h('li', {
            class: e.type === 'ACTION_REFUSED' || e.type === 'NOTICE' ? 'refused' : '', 'data-type': e.type,
          }, h('time', {}, clock(e.at)), ' ', named(describeK21Event(e, namer(this.ctx)))))));
  }

  update(): void {
    const view = k21View(this.ctx);
    const t = this.ctx.store.table(this.ctx.table);
    if (view === undefined) return;
    replace(this.element,
      h('div', { class: 'k21-head' },
        // The table's name is the page's <h1> (main.ts GamePage): here the game and the table's status.
        h('p', { class: 'k21-title' }, 'Killer-21 ', statusBadge(t.status)),
        h('div', { class: `mode-banner ${BANNER[view.phase]}`, role: 'status', 'data-testid': 'k21-banner', 'data-phase': view.phase },
          bannerText(view, namer(this.ctx)))),
      h('section', { class: 'panel k21-total', 'aria-label': 'Running total' },
        h('p', { class: 'k21-total-figure' },
          h('span', { 'data-testid': 'k21-total' }, String(view.total)), h('span', { class: 'k21-limit' }, ` / ${view.limit}`)),
        h('p', { class: 'k21-facts' },
          h('span', { 'data-testid': 'k21-direction' }, directionText(view)), ' · ',
          h('span', {}, `round ${view.round}`), ' · ',
          h('span', {}, `deck ${view.deckCount}`), ' · ', h('span', {}, `pile ${view.pileCount}`),
          view.variant === 'BLITZ' ? ' · Blitz' : ''),
        h('div', { class: 'k21-top', 'data-testid': 'k21-top' }, view.top === null ? h('p', { class: 'muted' }, 'no card yet') : cardFace(view.top.card, 'big', view.top.by === null ? null : seatName(this.ctx, view.top.by))),
        h('div', { class: 'recent', role: 'group', 'aria-label': 'Under the top card' }, view.recent.slice(0, -1).reverse().map((r) => cardFace(r.card, 'small', r.by === null ? null : seatName(this.ctx, r.by))))),
      this.killerPanel(view),
      this.players(view),
      this.result(view),
      view.losses.length === 0 ? null : h('section', { class: 'panel k21-losses', 'aria-label': 'Lives lost' },
        h('h2', {}, 'Lives lost'),
        h('ul', {}, view.losses.slice(-6).reverse().map((l) => h('li', {}, `${seatName(this.ctx, l.player)}: ${lossText(l.reason)} (round ${l.round})`)))),
      this.events(t.events), this.rules);
  }

  destroy(): void {
    this.countdown.stop();
  }
}
