/** Killer-21 on the overview: the running total against the limit as a bar, and each seat's lives as dots. */
import { s } from '../../dom.ts';
import { MINI_W, miniSvg } from '../../mini-svg.ts';
import type { NameOf } from '../../names.ts';
import type { Killer21PublicView } from './text.ts';

export function killer21MiniBoard(v: Killer21PublicView, nameOf: NameOf): SVGSVGElement {
  const width = MINI_W - 20;
  const filled = Math.max(0, Math.min(1, v.total / Math.max(1, v.limit))) * width;
  const seats = v.players.slice(0, 6);
  const lives = seats.map((p) => `${nameOf(p.id)} ${p.out ? 'out' : `${p.lives} ${p.lives === 1 ? 'life' : 'lives'}`}`).join(', ');
  return miniSvg(`Total ${v.total} of ${v.limit}; ${lives}`,
    s('text', { x: 10, y: 22, class: 'mini-text' }, `${v.total} / ${v.limit}`),
    s('rect', { x: 10, y: 30, width, height: 10, rx: 5, class: 'mini-empty' }),
    s('rect', { x: 10, y: 30, width: filled, height: 10, rx: 5, class: v.total >= v.limit ? 'mini-bar full' : 'mini-bar' }),
    ...seats.map((p, row) => s('g', {},
      ...Array.from({ length: Math.min(p.lives, 10) }, (_, i) => s('circle', { cx: 14 + (row % 2) * 74 + i * 9, cy: 54 + Math.floor(row / 2) * 16, r: 3.5, class: 'mini-life' })),
      p.out ? s('text', { x: 10 + (row % 2) * 74, y: 58 + Math.floor(row / 2) * 16, class: 'mini-text small' }, 'out') : null)));
}
