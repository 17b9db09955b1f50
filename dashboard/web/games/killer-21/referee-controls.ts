/**
 * The referee's Killer-21 controls: close the Killer window (an untimed one, or a timed one the table's timer
 * has not closed), rule on a red 0 whose landing interval straddles the deadline — with its figures, as Zip-Zap's
 * tie ruling (K21-34) — deal the next round, and with cards dealt at the table skip the hands' registration or
 * a tie-break on unseen hands (K21-92, K21-97). Each is the engine's action through the `action` request
 * (docs/rules-engine.md, Killer-21 actions); disabled controls say why.
 */
import { h, replace } from '../../dom.ts';
import type { GamePart, RefereeKit } from '../game-ui.ts';
import { k21View, namer, seatName } from './page.ts';
import { bannerText, ties, zeroTieSentence, type Killer21PublicView } from './text.ts';

export class Killer21RefereeControls implements GamePart {
  readonly element = h('section', { class: 'panel', 'aria-label': 'Killer-21 controls' });
  private signature = '';

  constructor(private readonly kit: RefereeKit) {}

  private action(what: string, action: Record<string, unknown>): void {
    void this.kit.send(what, 'action', { action });
  }

  private render(view: Killer21PublicView): void {
    const w = view.killer;
    const tied = w === null ? [] : ties(w);
    const closeWhy = w === null ? 'no Killer window is open' : w.closed ? 'the window has already closed' : null;
    const nextWhy = view.phase === 'ROUND_OVER' ? null : view.phase === 'GAME_OVER' ? 'the game is over' : 'the round is still being played';
    const why = (id: string, text: string | null): HTMLElement | null =>
      (text === null ? null : h('span', { id, class: 'muted' }, ` (${text})`));
    replace(this.element,
      h('h2', {}, 'Killer-21'),
      h('p', { 'data-testid': 'k21-ref-phase' }, `Round ${view.round} · total ${view.total} · ${bannerText(view, namer(this.kit.ctx))}`),
      h('div', { class: 'row' },
        h('button', {
          type: 'button', 'data-testid': 'k21-close-window', disabled: closeWhy !== null, 'aria-describedby': closeWhy === null ? null : 'k21-close-why',
          onclick: () => {
            this.action('close the Killer window', { type: 'close-window' });
          },
        }, 'Close the Killer window'), why('k21-close-why', closeWhy),
        h('button', {
          type: 'button', 'data-testid': 'k21-next-round', disabled: nextWhy !== null, 'aria-describedby': nextWhy === null ? null : 'k21-next-why',
          onclick: () => {
            this.action('next round', { type: 'next-round' });
          },
        }, 'Deal the next round'), why('k21-next-why', nextWhy)),
      view.phase !== 'DEALING' && view.phase !== 'SCORING' ? null : h('div', { class: 'row' },
        h('button', {
          type: 'button', 'data-testid': 'k21-skip-registration',
          onclick: () => {
            void this.skip(view.phase === 'SCORING');
          },
        }, view.phase === 'SCORING' ? 'End the tie-break: the tied players share the win' : 'Skip registration: play with unseen hands')),
      w === null || tied.length === 0 ? null : h('div', { class: 'tie-ruling', 'data-testid': 'k21-tie-ruling' },
        tied.map((p) => h('div', { class: 'row' },
          h('p', { 'data-testid': `k21-tie-figures-${p}` }, zeroTieSentence(p, w, namer(this.kit.ctx))),
          h('button', {
            type: 'button', class: 'primary', 'data-testid': `k21-in-time-${p}`,
            onclick: () => {
              this.action(`${p}: in time`, { type: 'rule-response', player: p, inTime: true });
            },
          }, `${seatName(this.kit.ctx, p)}: in time`),
          h('button', {
            type: 'button', class: 'danger', 'data-testid': `k21-late-${p}`,
            onclick: () => {
              this.action(`${p}: late`, { type: 'rule-response', player: p, inTime: false });
            },
          }, `${seatName(this.kit.ctx, p)}: late`)))));
  }

  private async skip(tieBreak: boolean): Promise<void> {
    if (tieBreak && !await this.kit.confirm('End the tie-break without the hands? The tied players share the win.')) return;
    this.action(tieBreak ? 'end the tie-break' : 'skip registration', { type: 'skip-registration' });
  }

  update(): void {
    const view = k21View(this.kit.ctx);
    if (view === undefined) return;
    // Rebuilt only when what it shows changes, so focus stays on a button across live updates.
    const signature = JSON.stringify([
      view.phase, view.round, view.total, view.turn, view.killer, view.roundWinners, view.registering, view.scoring,
    ]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.render(view);
  }
}
