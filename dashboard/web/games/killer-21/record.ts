/**
 * Killer-21 on the game record page: lives over time, and what a step's public view shows — the running total,
 * whose turn, each player's lives and hand size (a count: the public view has no card of a hand).
 */
import { h } from '../../dom.ts';
import { scoresOverTime, type RecordUi } from '../record-ui.ts';
import { cardName } from './card-names.ts';
import type { Killer21PublicView } from './text.ts';

export const k21RecordUi: RecordUi = {
  scoreLabel: () => 'lives',
  chart: (steps, players) => {
    const { xs, ys } = scoresOverTime(steps, players);
    return xs.length < 2 ? undefined : { title: 'Lives over time', x: 'seconds since the start', y: 'lives', xs, ys };
  },
  stepView: (view, nameOf) => {
    const v = view as Killer21PublicView;
    return h('ul', { class: 'record-facts' },
      h('li', {}, `Round ${v.round}: total ${v.total} of ${v.limit}${v.turn === null ? '' : `, ${nameOf(v.turn)} to play`}`),
      h('li', {}, v.top === null ? 'No card on the pile' : `Top of the pile: ${cardName(v.top.card)}`),
      v.players.map((p) => h('li', {}, `${nameOf(p.id)}: ${v.lives[p.id] ?? 0} lives, ${v.handCounts[p.id] ?? 0} cards`)));
  },
};
