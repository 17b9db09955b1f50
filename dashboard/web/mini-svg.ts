/**
 * The frame of an overview card's mini board: a small SVG of a fixed size (its viewBox; style.css sizes
 * `.mini-board`), so a card never changes height when its picture changes. An image with a name that says
 * what it shows in words. Each game draws its own inside (`games/<id>/mini-board.ts`).
 */
import { s } from './dom.ts';

export const MINI_W = 160;
export const MINI_H = 100;

export function miniSvg(label: string, ...children: SVGElement[]): SVGSVGElement {
  return s('svg', { viewBox: `0 0 ${MINI_W} ${MINI_H}`, class: 'mini-board', role: 'img', 'aria-label': label }, ...children);
}

/** A playing card face: a rounded rectangle in the suit's colour with its short text. */
export function miniCard(x: number, y: number, fill: string, text: string, dark: boolean): SVGGElement {
  return s('g', { class: 'mini-card' },
    s('rect', { x, y, width: 44, height: 64, rx: 6, fill, stroke: '#fff', 'stroke-width': 2 }),
    s('text', { x: x + 22, y: y + 40, 'text-anchor': 'middle', class: 'mini-card-text', fill: dark ? '#000' : '#fff' }, text));
}
