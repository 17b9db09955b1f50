/**
 * The Zapp Zerapp board drawn from the board data (BoardSpec, B.2.5), never from hard-coded geometry: a ring
 * of `trackLength` fields in movement order, each COLOUR field in its stretch's colour and each white NEUTRAL
 * (carrying) field with its two castles; per colour a START inside the ring next to its entry field and a
 * CITY outside the ring next to its last field; the pieces as tokens (colour plus a letter and number, so the
 * board does not rely on colour alone), stacked when they share a place.
 *
 * The SVG is built once per board and then updated in place, so that pieces can be animated: a move runs
 * along its path field by field (Web Animations), a banished piece flashes and slides back to its START.
 */
import { BOARD_PRESETS } from '../../controller/rules/zapp-zerapp/board-presets.ts';
import { pathFrom, stepsToCity } from '../../controller/rules/zapp-zerapp/board.ts';
import { s } from './dom.ts';
import { pieceLabel } from './piece-labels.ts';
import type { BoardSpec, Colour, Loc, MoveOption } from './types.ts';

export const COLOUR_HEX: Readonly<Record<Colour, string>> = { RED: '#d7263d', GREEN: '#1b998b', BLUE: '#2e5eaa', YELLOW: '#f4c430' };
export const COLOUR_NAME: Readonly<Record<Colour, string>> = { RED: 'red', GREEN: 'green', BLUE: 'blue', YELLOW: 'yellow' };
/** The seat colours, in the board's (and the new-game form's) order. */
export const COLOURS: readonly Colour[] = ['RED', 'GREEN', 'BLUE', 'YELLOW'];

const R = 360;
const VIEW = 540;

interface Point {
  readonly x: number;
  readonly y: number;
}

/** The board a view names, if the dashboard knows it (the built-in ones). */
export function boardFor(id: string): BoardSpec | undefined {
  return (BOARD_PRESETS as Readonly<Record<string, BoardSpec>>)[id];
}

function colourOfPiece(piece: string): Colour {
  return piece.replace(/\d+$/, '') as Colour;
}

// The labels are pure (event-text.ts needs them without the DOM): re-exported for the board's users.
export { locLabel, pieceLabel } from './piece-labels.ts';

export interface Highlight {
  readonly move: MoveOption | null;
}

export class BoardSvg {
  readonly element: SVGSVGElement;
  private readonly board: BoardSpec;
  private readonly fieldEls: SVGGElement[] = [];
  private readonly startEls = new Map<Colour, SVGGElement>();
  private readonly cityEls = new Map<Colour, SVGGElement>();
  private readonly pieceEls = new Map<string, SVGGElement>();
  private readonly piecesLayer: SVGGElement;
  private positions = new Map<string, Point>();
  private locs: Readonly<Record<string, Loc>> = {};

  constructor(board: BoardSpec) {
    this.board = board;
    const n = board.trackLength;
    const fieldR = Math.min(42, (Math.PI * R) / n * 0.86);
    this.element = s('svg', {
      viewBox: `${-VIEW} ${-VIEW} ${VIEW * 2} ${VIEW * 2}`, class: 'board', role: 'img',
      'aria-label': `Zapp Zerapp board "${board.id}", ${n} fields`,
    });
    const track = s('g', { class: 'track' });
    for (const field of board.fields) {
      const c = this.fieldCentre(field.idx);
      const g = s('g', { class: `field ${field.type === 'NEUTRAL' ? 'neutral' : 'colour'}`, 'data-field': field.idx });
      const title = field.type === 'COLOUR'
        ? `field ${field.idx}: ${COLOUR_NAME[field.colour]}`
        : `field ${field.idx}: white carrying field, castles ${field.castles.map((k) => COLOUR_NAME[k]).join(' and ')}`;
      g.append(s('title', {}, title));
      g.append(s('circle', { cx: c.x, cy: c.y, r: fieldR, class: 'field-disc', fill: field.type === 'COLOUR' ? COLOUR_HEX[field.colour] : '#ffffff' }));
      if (field.type === 'NEUTRAL') {
        // Two castles, drawn as small towers in their colours, with their initials.
        field.castles.forEach((k, i) => {
          const x = c.x + (i === 0 ? -fieldR * 0.45 : fieldR * 0.45);
          g.append(s('path', {
            d: `M${x - 11} ${c.y + 14} v-20 h5 v5 h4 v-5 h4 v5 h4 v-5 h5 v20 z`, fill: COLOUR_HEX[k], stroke: '#111', 'stroke-width': 1.5, class: 'castle',
          }));
          g.append(s('text', { x, y: c.y + 30, class: 'castle-label' }, k.charAt(0)));
        });
      } else {
        g.append(s('text', { x: c.x, y: c.y + fieldR * 0.62, class: 'field-initial' }, field.colour.charAt(0)));
      }
      g.append(s('text', { x: c.x, y: c.y - fieldR * 0.45, class: 'field-index' }, field.idx));
      track.append(g);
      this.fieldEls[field.idx] = g;
    }
    this.element.append(track);
    const homes = s('g', { class: 'homes' });
    for (const colour of COLOURS) {
      const home = board.homes[colour];
      const start = this.homePoint(home.entryField, 0.66);
      const city = this.homePoint(home.lastField, 1.29);
      const startG = s('g', { class: 'home start', 'data-home': `START-${colour}` },
        s('title', {}, `${COLOUR_NAME[colour]} start (enters at field ${home.entryField})`),
        s('rect', { x: start.x - 62, y: start.y - 30, width: 124, height: 60, rx: 10, fill: COLOUR_HEX[colour], class: 'home-box' }),
        s('text', { x: start.x, y: start.y - 36, class: 'home-label' }, `START ${colour.charAt(0)}`));
      const cityG = s('g', { class: 'home city', 'data-home': `CITY-${colour}` },
        s('title', {}, `${COLOUR_NAME[colour]} city (entered after field ${home.lastField})`),
        s('path', { d: this.cityShape(city), fill: COLOUR_HEX[colour], class: 'home-box city-box' }),
        s('text', { x: city.x, y: city.y + 46, class: 'home-label' }, `CITY ${colour.charAt(0)}`));
      homes.append(startG, cityG);
      this.startEls.set(colour, startG);
      this.cityEls.set(colour, cityG);
    }
    this.element.append(homes);
    this.piecesLayer = s('g', { class: 'pieces' });
    this.element.append(this.piecesLayer);
  }

  /** Moves the pieces to `pieces` (animating what changed) and marks a highlighted move. */
  update(pieces: Readonly<Record<string, Loc>>, highlight: Highlight, animate = true): void {
    const previous = this.locs;
    this.locs = pieces;
    const targets = this.layout(pieces);
    for (const [piece, point] of targets) {
      let el = this.pieceEls.get(piece);
      const colour = colourOfPiece(piece);
      if (el === undefined) {
        el = s('g', { class: `piece piece-${colour}`, 'data-piece': piece, 'data-loc': String(pieces[piece]) },
          s('title', {}, `${COLOUR_NAME[colour]} piece ${piece.replace(/^\D+/, '')}`),
          s('circle', { r: 19, fill: COLOUR_HEX[colour], class: 'piece-disc' }),
          s('text', { y: 6, class: `piece-label ${colour === 'YELLOW' ? 'dark' : ''}` }, pieceLabel(piece)));
        this.piecesLayer.append(el);
        this.pieceEls.set(piece, el);
        el.style.transform = `translate(${point.x}px, ${point.y}px)`;
      }
      const before = previous[piece];
      const after = pieces[piece];
      el.setAttribute('data-loc', String(after));
      const old = this.positions.get(piece);
      if (animate && old !== undefined && before !== undefined && after !== undefined && before !== after) {
        this.animate(el, piece, before, after, old, point);
      } else {
        el.style.transform = `translate(${point.x}px, ${point.y}px)`;
      }
    }
    this.positions = targets;
    this.mark(highlight.move);
  }

  private animate(el: SVGGElement, piece: string, from: Loc, to: Loc, start: Point, end: Point): void {
    const colour = colourOfPiece(piece);
    el.style.transform = `translate(${end.x}px, ${end.y}px)`;
    if (to === 'START') {
      // Banished: a flash, then back to START.
      el.classList.add('banished');
      el.animate([{ transform: `translate(${start.x}px, ${start.y}px) scale(1.4)` }, { transform: `translate(${end.x}px, ${end.y}px)` }],
        { duration: 900, easing: 'ease-in' });
      setTimeout(() => {
        el.classList.remove('banished');
      }, 1600);
      return;
    }
    const steps = to === 'CITY' ? stepsToCity(this.board, colour, from) : this.distance(colour, from, to);
    const fields = pathFrom(this.board, colour, from, steps);
    const frames = [start, ...fields.map((f) => this.fieldCentre(f)), end].map((p) => ({ transform: `translate(${p.x}px, ${p.y}px)` }));
    el.classList.add('moving');
    const animation = el.animate(frames, { duration: Math.min(2400, 180 * frames.length), easing: 'ease-in-out' });
    animation.onfinish = () => {
      el.classList.remove('moving');
    };
  }

  /** Steps from `from` to track field `to` for a piece of `colour` (from START: one step onto the entry field). */
  private distance(colour: Colour, from: Loc, to: number): number {
    const n = this.board.trackLength;
    const origin = from === 'START' ? this.board.homes[colour].entryField : from === 'CITY' ? to : from;
    const forward = this.board.clockwiseIsIncreasing ? to - origin : origin - to;
    return (((forward % n) + n) % n) + (from === 'START' ? 1 : 0);
  }

  private mark(move: MoveOption | null): void {
    for (const el of this.fieldEls) el.classList.remove('on-path', 'landing');
    for (const el of [...this.startEls.values(), ...this.cityEls.values()]) el.classList.remove('landing');
    for (const el of this.pieceEls.values()) el.classList.remove('selected', 'will-banish', 'carryable');
    this.element.classList.toggle('has-highlight', move !== null);
    if (move === null) return;
    for (const f of move.path) this.fieldEls[f]?.classList.add('on-path');
    if (typeof move.to === 'number') this.fieldEls[move.to]?.classList.add('landing');
    else if (move.to === 'CITY') this.cityEls.get(colourOfPiece(move.piece))?.classList.add('landing');
    this.pieceEls.get(move.piece)?.classList.add('selected');
    for (const p of move.banishes) this.pieceEls.get(p)?.classList.add('will-banish');
    for (const c of move.carryable) this.pieceEls.get(c.piece)?.classList.add('carryable');
  }

  /** Where every piece is drawn: fields stack up to four in a square, homes in a row by piece number. */
  private layout(pieces: Readonly<Record<string, Loc>>): Map<string, Point> {
    const out = new Map<string, Point>();
    const byField = new Map<number, string[]>();
    for (const [piece, loc] of Object.entries(pieces)) {
      if (typeof loc === 'number') {
        const list = byField.get(loc) ?? [];
        list.push(piece);
        byField.set(loc, list);
      } else {
        const colour = colourOfPiece(piece);
        const home = this.board.homes[colour];
        const centre = loc === 'START' ? this.homePoint(home.entryField, 0.66) : this.homePoint(home.lastField, 1.29);
        const slot = Number(piece.replace(/^\D+/, '')) - 1;
        out.set(piece, { x: centre.x + (slot - 1) * 40, y: centre.y });
      }
    }
    // Pieces sit in the lower part of a field, so its number (drawn in the upper part) stays readable; a
    // stack of three or four spills below the disc rather than over the number.
    const offsets: readonly Point[] = [{ x: -14, y: 8 }, { x: 14, y: 8 }, { x: -14, y: 34 }, { x: 14, y: 34 }];
    for (const [field, list] of byField) {
      const c = this.fieldCentre(field);
      list.sort();
      list.forEach((piece, i) => {
        const o = list.length === 1 ? { x: 0, y: 12 } : offsets[i % 4] ?? { x: 0, y: 12 };
        out.set(piece, { x: c.x + o.x, y: c.y + o.y });
      });
    }
    return out;
  }

  private angle(idx: number): number {
    const n = this.board.trackLength;
    const step = (2 * Math.PI) / n;
    // Field 0 a half step right of the top; clockwise on screen in the direction of movement.
    const a = -Math.PI / 2 + step / 2 + idx * step;
    return this.board.clockwiseIsIncreasing ? a : -Math.PI / 2 + step / 2 - idx * step;
  }

  private fieldCentre(idx: number): Point {
    const a = this.angle(idx);
    return { x: Math.round(R * Math.cos(a) * 10) / 10, y: Math.round(R * Math.sin(a) * 10) / 10 };
  }

  private homePoint(field: number, radius: number): Point {
    const a = this.angle(field);
    return { x: Math.round(R * radius * Math.cos(a)), y: Math.round(R * radius * Math.sin(a)) };
  }

  private cityShape(c: Point): string {
    // A little walled city: battlements on a box.
    const w = 62;
    const top = c.y - 28;
    return `M${c.x - w} ${c.y + 28} V${top} h14 v-10 h14 v10 h14 v-10 h14 v10 h14 v-10 h14 v10 h14 v-10 h14 v10 h14 V${c.y + 28} z`;
  }
}
