/** Zip-Zap on the overview: the top card of the pile and the pile's size. */
import { s } from '../../dom.ts';
import { miniCard, miniSvg } from '../../mini-svg.ts';
import type { ZipZapPublicView } from '../../types.ts';
import { cardName } from './card-names.ts';

const SUIT_FILL: Readonly<Record<string, string>> = { R: '#d7263d', B: '#2e5eaa', Y: '#f4c430', G: '#1b998b', W: '#222', Z: '#6b3fa0' };

export function zipMiniBoard(v: ZipZapPublicView): SVGSVGElement {
  const card = v.top?.card;
  const label = card === undefined ? 'No card on the pile yet' : `Top card ${cardName(card)}, ${v.pileSize} on the pile`;
  return miniSvg(label,
    card === undefined ? s('rect', { x: 20, y: 18, width: 44, height: 64, rx: 6, class: 'mini-empty' })
      : miniCard(20, 18, SUIT_FILL[card.charAt(0)] ?? '#444', card.startsWith('Z') ? 'ZAP' : card.slice(1), card.startsWith('Y')),
    s('text', { x: 80, y: 46, class: 'mini-text' }, `${v.pileSize}`),
    s('text', { x: 80, y: 66, class: 'mini-text small' }, 'on the pile'));
}
