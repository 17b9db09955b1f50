/**
 * The Zip-Zap page: the top card big, the recent pile, who is in control and why (a 10, a ZAP, nobody able to
 * play), every player's card count (never a card: the public view has only counts), refused plays with the
 * reason, the ZAP calls and the score table by round.
 */
import { clock, h, replace } from '../../dom.ts';
import { botBadge, eventList, rulesBox } from '../../common.ts';
import { botsOf, namedText, namesOf, type NameOf } from '../../names.ts';
import { refusedSentence } from '../../refusal-text.ts';
import type { PageContext } from '../../page.ts';
import { tieSentence } from '../../tie-text.ts';
import type { ZipZapPublicView } from '../../types.ts';
import { cardName, SUIT } from './card-names.ts';
import { contendersText, describeZipEvent } from './events.ts';
import { ZIP_REFUSALS } from './refusals.ts';
import { ZIP_RULES } from './rules.ts';
import { zipWaitingFor } from './waiting.ts';

import { ZIP_ZAP } from './summary.ts';

// The engine's id lives with the summary (loaded without the page); re-exported for the game's other parts.
export { ZIP_ZAP };

/** The running Zip-Zap game's public view, or undefined while the table runs something else. */
export function zipView(ctx: PageContext): ZipZapPublicView | undefined {
  const state = ctx.store.table(ctx.table).state;
  if (state?.mode !== 'game' || state.game !== ZIP_ZAP) return undefined;
  return state.view as unknown as ZipZapPublicView;
}

const CAUSE: Readonly<Record<string, string>> = {
  TEN: 'played a 10: nothing follows a 10',
  ZAP: 'played a ZAP: nothing follows a ZAP',
  STUCK: 'nobody could follow: the player of the top card restarts',
};

export function cardFace(card: string, size: 'big' | 'small', by?: string | null): HTMLElement {
  const zap = card.startsWith('Z');
  return h('div', { class: `card ${size} suit-${zap ? 'zap' : SUIT[card.charAt(0)] ?? 'x'}`, 'data-card': card, role: 'img', 'aria-label': cardName(card) },
    h('span', { class: 'card-value' }, zap ? 'ZAP' : card.slice(1)),
    h('span', { class: 'card-suit' }, zap ? '' : SUIT[card.charAt(0)] ?? ''),
    by === undefined ? null : h('span', { class: 'card-by' }, by === null ? 'flipped' : by));
}

function modeBanner(view: ZipZapPublicView, nameOf: NameOf): HTMLElement {
  const m = view.mode;
  let text: string;
  let cls: string;
  switch (m.kind) {
    case 'RACE':
      // A pending tie stops the race until the referee rules: the banner must not invite more plays.
      text = view.tie === null ? 'RACE — anyone who can follow, play!' : 'TIE — the race waits for the referee';
      cls = view.tie === null ? 'race' : 'paused';
      break;
    case 'PAUSED':
      text = `PAUSED — ${nameOf(m.controller)} is in control: ${nameOf(m.controller)} ${CAUSE[m.cause] ?? m.cause}`;
      cls = 'paused';
      break;
    case 'START':
      text = 'Waiting for the start card';
      cls = 'start';
      break;
    case 'DEALING':
      text = 'Dealing at the table';
      cls = 'start';
      break;
    case 'OPEN_START':
      text = 'Open start: the first number card starts the race';
      cls = 'start';
      break;
    case 'ROUND_OVER':
      text = `Round over — ${nameOf(m.winner)} emptied their hand${m.pending.length > 0 ? `; hands to score: ${m.pending.map(nameOf).join(', ')}` : ''}`;
      cls = 'over';
      break;
    case 'GAME_OVER':
      text = `Game over — winner${view.winners.length === 1 ? '' : 's'}: ${view.winners.map(nameOf).join(', ')}`;
      cls = 'over';
      break;
  }
  return h('div', { class: `mode-banner ${cls}`, role: 'status', 'data-testid': 'mode-banner', 'data-mode': m.kind }, text,
    view.tie === null ? null : h('div', { class: 'tie', 'data-testid': 'tie' }, `Tie — ${tieSentence(view.tie, nameOf)} The referee decides.`),
    view.tie === null ? null : h('div', { class: 'tie-cards', 'data-testid': 'tie-cards' }, `Contested, face up on the pile: ${contendersText(view.tie.contenders, nameOf)}`));
}

function scoreTable(view: ZipZapPublicView, nameOf: NameOf): HTMLElement {
  const rounds = Math.max(0, ...view.players.map((p) => p.roundScores.length));
  return h('section', { class: 'panel scores', 'aria-label': 'Scores' },
    h('h2', {}, view.scoringMode === 'WINS' ? 'Round wins' : 'Penalty points by round'),
    h('table', { 'data-testid': 'score-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'player'),
        Array.from({ length: rounds }, (_, i) => h('th', { scope: 'col' }, `R${i + 1}`)), h('th', { scope: 'col' }, 'total'))),
      h('tbody', {}, view.players.map((p) => h('tr', { class: view.winners.includes(p.id) ? 'winner' : '' },
        h('th', { scope: 'row' }, nameOf(p.id)), p.roundScores.map((s) => h('td', {}, s)), h('td', { class: 'total' }, p.total))))));
}

export class ZipZapPage {
  readonly element = h('div', { class: 'game zip' });
  /** Built once, so that it stays open across updates. */
  private readonly rules = rulesBox('Zip-Zap', ZIP_RULES, 'rules ZIP-n, read by the engine as docs/rules-engine.md says');

  constructor(private readonly ctx: PageContext) {}

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const view = zipView(this.ctx);
    if (view === undefined) return;
    const zaps = t.events.filter((e) => e.type === 'ZAP_PLAYED').slice(-6).reverse();
    const controller = view.mode.kind === 'PAUSED' ? view.mode.controller : null;
    const nameOf = namesOf(this.ctx.store, this.ctx.table);
    const bots = botsOf(this.ctx.store, this.ctx.table);
    replace(this.element,
      h('div', { class: 'zip-head' },
        h('p', { class: 'phase' }, `Round ${view.round} of ${view.roundsTotal} · suits: ${view.suits.map((s) => s.toLowerCase()).join(', ')}`
          + ` · reserve ${view.reserveCount} · pile ${view.pileSize}`),
        modeBanner(view, nameOf),
        h('p', { class: 'waiting muted', 'data-testid': 'waiting' }, zipWaitingFor(view, nameOf).text)),
      h('section', { class: 'panel pile', 'aria-label': 'Discard pile' },
        h('h2', {}, 'Top card'),
        h('div', { 'data-testid': 'top-card' }, view.top === null ? h('p', { class: 'muted' }, 'no card yet') : cardFace(view.top.card, 'big', view.top.by)),
        h('h3', {}, 'Recent pile'),
        h('div', { class: 'recent', 'data-testid': 'recent-pile' }, view.recent.slice(0, -1).reverse().map((r) => cardFace(r.card, 'small', r.by)))),
      h('section', { class: 'panel players', 'aria-label': 'Players' },
        h('h2', {}, 'Players'),
        h('ul', { class: 'player-list' }, view.players.map((p) => h('li', { class: p.id === controller ? 'controller' : '', 'data-testid': `player-${p.id}` },
          h('span', { class: 'player-name' }, nameOf(p.id)), botBadge(bots, p.id),
          h('span', { class: 'count', 'data-testid': `count-${p.id}`, 'aria-label': `${p.handCount} cards` }, String(p.handCount)),
          h('span', { class: 'muted' }, p.handCount === 1 ? ' card' : ' cards'),
          p.zapUsed ? h('span', { class: 'badge zap' }, 'ZAP used') : null,
          p.id === controller ? h('span', { class: 'badge control' }, 'in control') : null)))),
      h('section', { class: 'panel rejected', 'aria-label': 'Refused plays' },
        h('h2', {}, 'Refused plays'),
        view.rejected.length === 0 ? h('p', { class: 'muted' }, 'none this round') :
            h('ul', { 'data-testid': 'rejected' }, view.rejected.slice(-8).reverse().map((r) =>
              h('li', { 'data-code': r.code }, h('time', {}, clock(r.at)), ` ${refusedSentence(`${nameOf(r.player)}'s card`, r.code, r.message, ZIP_REFUSALS)}`)))),
      h('section', { class: 'panel zaps', 'aria-label': 'ZAP calls' },
        h('h2', {}, 'ZAP calls'),
        zaps.length === 0 ? h('p', { class: 'muted' }, 'none yet') :
            h('ul', { 'data-testid': 'zap-calls' }, zaps.map((e) => h('li', {}, h('time', {}, clock(e.at)), ` ${nameOf(String(e.player))}: ZAP!`)))),
      scoreTable(view, nameOf),
      eventList(t.events, 12, nameOf, describeZipEvent, namedText(this.ctx.store, this.ctx.table)), this.rules);
  }
}
