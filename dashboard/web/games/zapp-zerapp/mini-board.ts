/** Zapp Zerapp on the overview: the board itself (board-svg.ts), small, with the pieces where they stand. */
import { BoardSvg, boardFor } from '../../board-svg.ts';
import type { NameOf } from '../../names.ts';
import type { ZappView } from '../../types.ts';

export function zappMiniBoard(v: ZappView, nameOf: NameOf): SVGSVGElement | null {
  const spec = boardFor(v.board.id) ?? boardFor('default');
  if (spec === undefined) return null;
  const board = new BoardSvg(spec);
  board.update(v.pieces, { move: null }, false);
  const city = v.players.map((p) => `${nameOf(p.id)} ${p.inCity} in the city`).join(', ');
  board.element.setAttribute('aria-label', `Board, round ${v.round}: ${city}`);
  board.element.classList.add('mini-board');
  return board.element;
}
