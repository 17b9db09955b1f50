/**
 * Zapp Zerapp on the game record page: the board at a step, and the positions over time — per player the
 * fields their pieces have travelled from their START (a piece at START 0, on the track its distance from its
 * colour's entry field plus one, in the CITY the track's length plus one), followed through the public
 * PIECE_MOVED / PIECE_CARRIED / PIECE_BANISHED events of the record.
 */
import { BoardSvg, boardFor, COLOUR_NAME, pieceLabel } from '../../board-svg.ts';
import { h } from '../../dom.ts';
import { PHASE_TEXT } from './page.ts';
import type { BoardSpec, Colour, Loc, ZappView } from '../../types.ts';
import type { RecordSeries, RecordStep, RecordUi } from '../record-ui.ts';

function distance(board: BoardSpec, colour: Colour, loc: Loc): number {
  if (loc === 'START') return 0;
  if (loc === 'CITY') return board.trackLength + 1;
  const entry = board.homes[colour].entryField;
  return ((loc - entry + board.trackLength) % board.trackLength) + 1;
}

const colourOfPiece = (piece: string): Colour | undefined =>
  (['RED', 'GREEN', 'BLUE', 'YELLOW'] as const).find((c) => piece.startsWith(c));

function positions(steps: readonly RecordStep[], players: readonly string[], view: unknown): RecordSeries | undefined {
  const v = view as Partial<ZappView>;
  const board = v.board === undefined ? undefined : boardFor(v.board.id);
  if (board === undefined || v.players === undefined) return undefined;
  const colourOf = new Map(v.players.map((p) => [p.colour, p.id]));
  const where = new Map<string, Loc>();
  const start = steps[0]?.at ?? 0;
  const xs: number[] = [];
  const ys: Record<string, number[]> = Object.fromEntries(players.map((p) => [p, []]));
  const total = (player: string): number => {
    let sum = 0;
    for (const [piece, loc] of where) {
      const colour = colourOfPiece(piece);
      if (colour !== undefined && colourOf.get(colour) === player) sum += distance(board, colour, loc);
    }
    return sum;
  };
  steps.forEach((step, i) => {
    let moved = false;
    for (const e of step.events as readonly { type?: string; piece?: string; to?: Loc }[]) {
      if (typeof e.piece !== 'string') continue;
      const to = e.type === 'PIECE_MOVED' || e.type === 'PIECE_CARRIED' ? e.to : e.type === 'PIECE_BANISHED' ? 'START' : undefined;
      if (to === undefined) continue;
      where.set(e.piece, to);
      moved = true;
    }
    if (!moved && i !== 0 && i !== steps.length - 1) return;
    xs.push(Math.round((step.at - start) / 100) / 10);
    for (const p of players) ys[p]?.push(total(p));
  });
  return { title: 'Positions over time', x: 'seconds since the start', y: 'fields travelled', xs, ys };
}

export const zappRecordUi: RecordUi = {
  scoreLabel: () => 'pieces in the city',
  chart: positions,
  stepView: (view, nameOf) => {
    const v = view as ZappView;
    const spec = boardFor(v.board.id);
    const lines = h('ul', { class: 'record-facts' },
      h('li', {}, `Round ${v.round}: ${PHASE_TEXT[v.phase] ?? v.phase}`),
      v.dice === null ? null : h('li', {}, `Dice ${v.dice.d1} + ${v.dice.d2}${v.magic === null ? '' : `, magic number ${v.magic}`}`),
      v.players.map((p) => h('li', {}, `${nameOf(p.id)} (${COLOUR_NAME[p.colour]}): ${p.inCity} in the city; `
        + Object.entries(v.pieces).filter(([id]) => colourOfPiece(id) === p.colour).map(([id, loc]) => `${pieceLabel(id)} ${typeof loc === 'number' ? `field ${loc}` : loc.toLowerCase()}`).join(', '))));
    if (spec === undefined) return lines;
    const board = new BoardSvg(spec);
    board.update(v.pieces, { move: null }, false);
    return h('div', { class: 'record-board' }, board.element, lines);
  },
};
