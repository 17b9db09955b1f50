/**
 * Zip-Zap on the game record page: penalty points (or round wins) by round, and what a step's public view
 * shows — the top card, the mode, each player's card count and total. Never a hand: the view has counts only.
 */
import { h } from '../../dom.ts';
import type { ZipZapPublicView } from '../../types.ts';
import { scoresByRound, type RecordUi } from '../record-ui.ts';
import { cardName } from './card-names.ts';

const scoreLabel = (view: unknown): string => ((view as Partial<ZipZapPublicView>).scoringMode === 'WINS' ? 'round wins' : 'penalty points');

export const zipRecordUi: RecordUi = {
  scoreLabel,
  chart: (steps, players, view) => {
    const { xs, ys } = scoresByRound(steps, players);
    return xs.length < 2 ? undefined : { title: `${scoreLabel(view) === 'round wins' ? 'Round wins' : 'Penalty points'} by round`, x: 'round', y: scoreLabel(view), xs, ys };
  },
  stepView: (view, nameOf) => {
    const v = view as ZipZapPublicView;
    return h('ul', { class: 'record-facts' },
      h('li', {}, `Round ${v.round}: ${v.mode.kind === 'PAUSED' ? `paused for ${nameOf(v.mode.controller)}` : v.mode.kind.toLowerCase().replaceAll('_', ' ')}`),
      h('li', {}, v.top === null ? 'No card on the pile' : `Top card: ${cardName(v.top.card)}${v.top.by === null ? '' : ` (${nameOf(v.top.by)})`}`),
      v.players.map((p) => h('li', {}, `${nameOf(p.id)}: ${p.handCount} card${p.handCount === 1 ? '' : 's'} in hand, ${p.total} ${scoreLabel(v)}`)));
  },
};
