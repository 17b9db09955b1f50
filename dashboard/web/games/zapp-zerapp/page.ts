/**
 * The Zapp Zerapp page: the board, the dice and the magic number, who has placed a barrel (never which: the
 * public view has only a yes/no), the reveal with successes and the move order, and for the current mover the
 * legal moves with what each banishes or carries, highlighted on the board when chosen.
 */
import { BoardSvg, boardFor } from '../../board-svg.ts';
import { botBadge, describeMove, eventList, playerWithColour, rulesBox } from '../../common.ts';
import { VIOLATION_KINDS } from '../../../../controller/rules/zapp-zerapp/state.ts';
import { clock, h, replace } from '../../dom.ts';
import { botsOf, namedText, namesOf, type NameOf } from '../../names.ts';
import type { PageContext } from '../../page.ts';
import type { MoveOption, ZappView } from '../../types.ts';
import { describeZappEvent } from './events.ts';
import { ZAPP_RULES } from './rules.ts';

import { ZAPP_ZERAPP } from './summary.ts';

// The engine's id lives with the summary (loaded without the page); re-exported for the game's other parts.
export { ZAPP_ZERAPP };

/** The running Zapp Zerapp game's public view, or undefined while the table runs something else. */
export function zappView(ctx: PageContext): ZappView | undefined {
  const state = ctx.store.table(ctx.table).state;
  if (state?.mode !== 'game' || state.game !== ZAPP_ZERAPP) return undefined;
  return state.view as unknown as ZappView;
}

export const PHASE_TEXT: Readonly<Record<string, string>> = {
  ROLL: 'Roll the dice',
  SELECT: 'Choose and place a barrel',
  MOVE: 'Move pieces',
  DONE: 'Game over',
};

/** The board plus its move list, shared by the game page and the referee page. */
export class ZappBoardPanel {
  readonly element: HTMLElement;
  private board: BoardSvg | undefined;
  private boardId = '';
  private selected: MoveOption | null = null;
  private hovered: MoveOption | null = null;
  private view: ZappView | undefined;
  private readonly boardHost = h('div', { class: 'board-host' });

  constructor() {
    this.element = h('section', { class: 'panel board-panel', 'aria-label': 'Board' }, this.boardHost);
  }

  /** The move chosen in the list, if it is still legal. */
  get selection(): MoveOption | null {
    return this.selected;
  }

  select(move: MoveOption | null): void {
    this.selected = move;
    this.redraw(false);
  }

  hover(move: MoveOption | null): void {
    this.hovered = move;
    this.redraw(false);
  }

  update(view: ZappView): void {
    this.view = view;
    if (this.board === undefined || this.boardId !== view.board.id) {
      const spec = boardFor(view.board.id) ?? boardFor('default');
      if (spec === undefined) return;
      this.board = new BoardSvg(spec);
      this.boardId = view.board.id;
      replace(this.boardHost, this.board.element,
        boardFor(view.board.id) === undefined ? h('p', { class: 'warning' }, `Board "${view.board.id}" is not known to the dashboard: drawn on the default layout.`) : null);
    }
    // A selection survives only while the same move is still offered.
    if (this.selected !== null && !view.moves.some((m) => sameMove(m, this.selected))) this.selected = null;
    if (this.hovered !== null && !view.moves.some((m) => sameMove(m, this.hovered))) this.hovered = null;
    this.redraw(true);
  }

  private redraw(animate: boolean): void {
    if (this.board === undefined || this.view === undefined) return;
    this.board.update(this.view.pieces, { move: this.hovered ?? this.selected }, animate);
  }
}

export function sameMove(a: MoveOption | null, b: MoveOption | null): boolean {
  return a !== null && b !== null && a.piece === b.piece && a.from === b.from && a.to === b.to;
}

function diceFace(value: number | undefined, label: string): HTMLElement {
  return h('span', { class: 'die', 'aria-label': `${label}: ${value ?? 'not rolled'}` }, value === undefined ? '–' : String(value));
}

/** The dice, the magic number and the phase. */
export function zappHeader(view: ZappView, nameOf: NameOf = (id) => id): HTMLElement {
  const rolling = view.phase === 'ROLL';
  return h('section', { class: 'panel dice-panel', 'aria-label': 'Dice and magic number' },
    h('div', { class: 'phase', 'data-testid': 'phase' }, `Round ${view.round} · ${PHASE_TEXT[view.phase] ?? view.phase}`),
    // During "Roll" the view still holds last round's dice: they are shown small as last round's, never as
    // this round's (a TV across the room would read big dice as the new roll).
    h('div', { class: 'dice' }, diceFace(rolling ? undefined : view.dice?.d1, 'first die'), diceFace(rolling ? undefined : view.dice?.d2, 'second die')),
    h('div', { class: 'magic' }, h('span', { class: 'muted' }, 'magic number '),
      h('strong', { 'data-testid': 'magic' }, view.magic === null || rolling ? '—' : String(view.magic))),
    rolling && view.dice !== null ? h('p', { class: 'muted last-roll', 'data-testid': 'last-roll' },
      `last round: ${view.dice.d1} + ${view.dice.d2}${view.magic === null ? '' : ` = ${view.magic}`}`) : null,
    h('p', { class: 'muted' }, `Roller: ${nameOf(view.roller)} · barrels on the mountain: ${view.mountainCount}`),
    view.winner === null ? null : h('p', { class: 'winner', role: 'alert', 'data-testid': 'winner' }, `${nameOf(view.winner)} wins!`));
}

/** Seats: placed or not (never the value), holding, pieces in the city; after the reveal the barrels. */
export function zappSeats(view: ZappView, nameOf: NameOf = (id) => id, bots: ReadonlySet<string> = new Set()): HTMLElement {
  const revealed = new Map((view.reveal?.results ?? []).map((r) => [r.player, r]));
  return h('section', { class: 'panel seats', 'aria-label': 'Seats' },
    h('h2', {}, 'Seats'),
    h('ul', { class: 'seat-list' }, view.players.map((p) => {
      const r = revealed.get(p.id);
      const placed = view.placed[p.id] === true;
      const holding = view.holding[p.id] ?? 0;
      const barrel = r === undefined
        ? h('span', { class: `placed ${placed ? 'yes' : 'no'}`, 'data-testid': `placed-${p.id}` },
            placed ? '● barrel placed' : holding > 0 ? `choosing (holding ${holding})` : view.phase === 'SELECT' ? 'choosing…' : '')
        : h('span', { class: `revealed ${r.success ? 'success' : 'fail'}`, 'data-testid': `revealed-${p.id}` },
            r.barrel === null ? 'no barrel ✗' : `barrel ${r.barrel} ${r.success ? '✓ success' : '✗ failed'}`);
      return h('li', { class: view.currentMover === p.id ? 'current' : '' },
        playerWithColour(nameOf(p.id), p.colour), botBadge(bots, p.id), ' ', barrel,
        h('span', { class: 'muted city-count' }, ` · ${p.inCity}/3 in the city`));
    })),
    view.reveal === null ? null : h('p', { 'data-testid': 'move-order' },
      'Move order: ', view.reveal.moveOrder.length === 0 ? 'nobody succeeded' : view.reveal.moveOrder.map(nameOf).join(' → ')));
}

/**
 * The moves with those that do the very same thing merged (three pieces standing together at start, each to the
 * same field with the same effects): on the table they are one move of "a piece from there", so one line offers
 * it, naming the pieces it could be, instead of three lines that read alike. The first piece is the one moved.
 */
export function alikeMoves(moves: readonly MoveOption[]): { readonly move: MoveOption; readonly pieces: readonly string[] }[] {
  const groups = new Map<string, { move: MoveOption; pieces: string[] }>();
  for (const m of moves) {
    const { piece, carryable, ...rest } = m;
    // Carrying names the carried pieces, never the mover: alike when everything but the mover is.
    const key = JSON.stringify({ ...rest, carryable: carryable.map((c) => ({ ...c })) });
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { move: m, pieces: [piece] });
    else group.pieces.push(piece);
  }
  return [...groups.values()];
}

/** The current mover's legal moves; choosing one highlights it on the board. */
export function zappMoves(
  view: ZappView, board: ZappBoardPanel, extra?: (m: MoveOption) => HTMLElement | null, nameOf: NameOf = (id) => id,
): HTMLElement {
  if (view.currentMover === null) {
    return h('section', { class: 'panel moves', 'aria-label': 'Moves' }, h('h2', {}, 'Moves'),
      h('p', { class: 'muted' }, view.phase === 'MOVE' ? 'Waiting for the next mover.' : 'Moves are listed after the reveal.'));
  }
  return h('section', { class: 'panel moves', 'aria-label': 'Moves' },
    h('h2', {}, `${nameOf(view.currentMover)} moves ${view.currentBarrel ?? '?'}`),
    h('ul', { class: 'move-list', 'data-testid': 'move-list' }, alikeMoves(view.moves).map(({ move: m, pieces }) => {
      const button = h('button', {
        type: 'button', class: `move ${sameMove(m, board.selection) ? 'selected' : ''}`, 'data-piece': m.piece,
        ...(pieces.length > 1 ? { 'data-alike': pieces.join(' ') } : {}),
        'aria-pressed': sameMove(m, board.selection) ? 'true' : 'false',
        onclick: () => {
          board.select(sameMove(m, board.selection) ? null : m);
          for (const b of button.parentElement?.parentElement?.querySelectorAll('button.move') ?? []) {
            b.classList.toggle('selected', b === button && board.selection !== null);
            b.setAttribute('aria-pressed', b === button && board.selection !== null ? 'true' : 'false');
          }
        },
        onmouseenter: () => {
          board.hover(m);
        },
        onmouseleave: () => {
          board.hover(null);
        },
        onfocus: () => {
          board.hover(m);
        },
        onblur: () => {
          board.hover(null);
        },
      }, describeMove(m, pieces));
      return h('li', {}, button, extra?.(m) ?? null);
    })));
}

/**
 * The violations the table reported (snatching, a second barrel, a committed barrel lifted…; ZAPP-21–26), newest
 * first, with the rule in words: the referee decides what follows (the table never corrects by itself).
 */
export function zappViolations(view: ZappView, nameOf: NameOf, named: (text: string) => string = (text) => text): HTMLElement {
  const list = view.violations.slice(-8).reverse();
  return h('section', { class: 'panel violations', 'aria-label': 'Violations' },
    h('h2', {}, 'Violations'),
    list.length === 0 ? h('p', { class: 'muted' }, 'none reported') :
        h('ul', { 'data-testid': 'violations' }, list.map((v) => h('li', { 'data-kind': v.kind },
          h('time', {}, clock(v.at)), ` Round ${v.round} · ${nameOf(v.player)}: ${VIOLATION_KINDS[v.kind]}`,
          v.detail === null ? null : h('span', { class: 'muted' }, ` (${named(v.detail)})`), ' ', h('code', {}, v.kind)))));
}

export class ZappZerappPage {
  readonly element = h('div', { class: 'game zapp' });
  private readonly board = new ZappBoardPanel();
  private readonly side = h('div', { class: 'side' });
  /** Built once, so that it stays open across updates. */
  private readonly rules = rulesBox('Zapp Zerapp', ZAPP_RULES, 'rules ZAPP-n, read by the engine as docs/rules-engine.md says');

  constructor(private readonly ctx: PageContext) {
    this.element.append(this.board.element, this.side);
  }

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const view = zappView(this.ctx);
    if (view === undefined) return;
    this.board.update(view);
    const nameOf = namesOf(this.ctx.store, this.ctx.table);
    replace(this.side, zappHeader(view, nameOf), zappSeats(view, nameOf, botsOf(this.ctx.store, this.ctx.table)),
      zappMoves(view, this.board, undefined, nameOf),
      zappViolations(view, nameOf, namedText(this.ctx.store, this.ctx.table)),
      eventList(t.events, 12, nameOf, describeZappEvent, namedText(this.ctx.store, this.ctx.table)), this.rules);
  }
}
