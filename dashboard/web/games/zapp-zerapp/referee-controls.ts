/**
 * The referee's Zapp Zerapp controls: roll or enter the dice, reveal the barrels now, the seats and the board,
 * and the current mover's moves with the pieces to carry. Built once per game and updated in place, so chosen
 * dice, ticked carry boxes and the keyboard focus survive live updates; the move list is rebuilt only when the
 * moves on offer change (its boxes keep their ticks).
 */
import { pieceLabel } from '../../board-svg.ts';
import { field, options } from '../../common.ts';
import { h, replace } from '../../dom.ts';
import { gatedButton, type GatedButton } from '../../gated-button.ts';
import { botsOf, namesOf } from '../../names.ts';
import type { MoveOption, ZappView } from '../../types.ts';
import type { GamePart, RefereeKit } from '../game-ui.ts';
import { PHASE_TEXT, ZappBoardPanel, zappHeader, zappMoves, zappSeats, zappView } from './page.ts';

const DIE = ['1', '2', '3', '4', '5', '6'];

export class ZappRefereeControls implements GamePart {
  readonly element: HTMLElement;
  private readonly header = h('div', {});
  private readonly seats = h('div', {});
  // Focusable by script (tabindex -1): where the keyboard focus lands when the button it was on is gone.
  private readonly movesHost = h('div', { tabindex: -1, 'data-testid': 'moves-host' });
  private readonly board = new ZappBoardPanel();
  private readonly roll: GatedButton;
  private readonly enter: GatedButton;
  private readonly reveal: GatedButton;
  private movesKey = '';
  /** The state seq last shown: the controls follow the table's state, not every store change. */
  private seq: number | undefined;

  constructor(private readonly kit: RefereeKit) {
    const d1 = h('select', {}, options(DIE));
    const d2 = h('select', {}, options(DIE));
    this.roll = gatedButton(h('button', { type: 'button', 'data-testid': 'roll', onclick: () => void this.kit.send('roll', 'roll', {}) }, 'Roll the dice'));
    this.enter = gatedButton(h('button', { type: 'submit' }, 'Enter dice'));
    this.reveal = gatedButton(h('button', { type: 'button', onclick: () => void this.kit.send('reveal', 'action', { action: { type: 'reveal' } }) }, 'Reveal now'));
    const dice = h('section', { class: 'panel', 'aria-labelledby': 'ref-dice' }, h('h2', { id: 'ref-dice' }, 'Dice'),
      h('div', { class: 'row' }, this.roll.element),
      h('form', {
        class: 'inline',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void this.kit.send('enter dice', 'enter-dice', { d1: Number(d1.value), d2: Number(d2.value) });
        },
      }, field('First die', d1, 'd1'), field('Second die', d2, 'd2'), this.enter.element),
      h('div', { class: 'row' }, this.reveal.element));
    this.element = h('div', { class: 'zapp-controls' }, this.header, dice, this.seats, this.board.element, this.movesHost);
  }

  update(): void {
    const view = zappView(this.kit.ctx);
    const seq = this.kit.ctx.store.table(this.kit.ctx.table).state?.seq ?? -1;
    if (view === undefined || seq === this.seq) return;
    this.seq = seq;
    const phase = PHASE_TEXT[view.phase] ?? view.phase;
    this.roll.set(view.phase === 'ROLL' ? null : `only before the roll (now: ${phase})`);
    this.enter.set(view.phase === 'ROLL' ? null : `only before the roll (now: ${phase})`);
    this.reveal.set(view.phase === 'SELECT' ? null : view.phase === 'ROLL' ? 'after the roll, while barrels are placed' : `only while barrels are placed (now: ${phase})`);
    // Players by name, bots marked, as on the game page (names.ts).
    const nameOf = namesOf(this.kit.ctx.store, this.kit.ctx.table);
    replace(this.header, zappHeader(view, nameOf));
    replace(this.seats, zappSeats(view, nameOf, botsOf(this.kit.ctx.store, this.kit.ctx.table)));
    this.board.update(view);
    // The move list is rebuilt only when the moves on offer change; ticked boxes carry over by piece.
    const key = `${view.currentMover ?? ''}|${view.currentBarrel ?? ''}|${view.phase}|${JSON.stringify(view.moves)}`;
    if (key === this.movesKey) return;
    this.movesKey = key;
    const ticks = new Map([...this.movesHost.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].map((b) => [b.id, b.checked]));
    const focused = document.activeElement instanceof HTMLElement && this.movesHost.contains(document.activeElement) ? document.activeElement.id : '';
    replace(this.movesHost, zappMoves(view, this.board, (m) => this.moveActions(view, m), nameOf));
    for (const box of this.movesHost.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
      const was = ticks.get(box.id);
      if (was !== undefined) box.checked = was;
    }
    if (focused !== '') {
      // After a move by keyboard its button is gone with the old list: keep the focus in the move list (the next
      // mover's first move, or the list itself) rather than let it drop to the page body.
      const again = document.getElementById(focused) ?? this.movesHost.querySelector<HTMLElement>('button') ?? this.movesHost;
      again.focus();
    }
  }

  private moveActions(view: ZappView, m: MoveOption): HTMLElement {
    const id = (kind: string, piece: string): string => `${kind}-${m.piece}-${piece}`;
    const carry = m.carryable.map((c) => {
      const box = h('input', { type: 'checkbox', id: id('carry', c.piece), 'data-carry': c.piece });
      const city = c.mayEnterCity ? h('input', { type: 'checkbox', id: id('city', c.piece), 'data-city': c.piece, checked: true }) : null;
      return h('span', { class: 'carry' }, h('label', {}, box, ` carry ${pieceLabel(c.piece)}`),
        city === null ? null : h('label', {}, city, ' into the city'));
    });
    const go = h('button', {
      type: 'button', class: 'primary', id: `go-${m.piece}`, 'data-move': m.piece,
      onclick: () => {
        const checked = (kind: string, piece: string): boolean =>
          (document.getElementById(id(kind, piece)) as HTMLInputElement | null)?.checked === true;
        const params: Record<string, unknown> = { player: view.currentMover, piece: m.piece };
        if (m.carryable.length > 0) {
          params.carry = Object.fromEntries(m.carryable.map((c) => [c.piece, checked('carry', c.piece)]));
          const into = m.carryable.filter((c) => c.mayEnterCity);
          if (into.length > 0) params.intoCity = Object.fromEntries(into.map((c) => [c.piece, checked('city', c.piece)]));
        }
        void this.kit.send(`move ${pieceLabel(m.piece)}`, 'move', params);
      },
    }, `Move ${pieceLabel(m.piece)}`);
    return h('span', { class: 'move-actions' }, carry, go);
  }
}
