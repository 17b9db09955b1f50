/**
 * The referee's Zip-Zap controls: flip the start card, "nobody can play", announce stuck at once, the next round,
 * and a pending tie with its figures and one button per contender. Built once and updated in place: the buttons
 * only change whether they are enabled and why, the tie ruling is redrawn only when the tie changes.
 */
import { h, replace } from '../../dom.ts';
import { gatedButton, type GatedButton } from '../../gated-button.ts';
import { namesOf } from '../../names.ts';
import { tieSentence } from '../../tie-text.ts';
import type { GamePart, RefereeKit } from '../game-ui.ts';
import { cardName } from './card-names.ts';
import { zipView } from './page.ts';

export class ZipRefereeControls implements GamePart {
  readonly element: HTMLElement;
  private readonly mode = h('p', { 'data-testid': 'mode' });
  private readonly tieHost = h('div', {});
  private readonly flip: GatedButton;
  private readonly declare: GatedButton;
  private readonly announce: GatedButton;
  private readonly next: GatedButton;
  private tieKey = '';
  /** The state seq last shown: the controls follow the table's state, not every store change. */
  private seq: number | undefined;

  constructor(private readonly kit: RefereeKit) {
    this.flip = gatedButton(h('button', { type: 'button', onclick: () => void this.kit.send('flip', 'action', { action: { type: 'flip' } }) }, 'Flip start card'));
    this.declare = gatedButton(h('button', { type: 'button', 'data-testid': 'declare-stuck', onclick: () => void this.kit.send('nobody can play', 'declare-stuck', {}) }, 'Nobody can play'));
    // The engine's own "nobody can follow" (ORACLE): the table sends it by itself after stuckAnnounceDelayMs;
    // the referee may say it at once. Refused with SOMEONE_CAN_PLAY while a hand can follow.
    this.announce = gatedButton(h('button', {
      type: 'button', 'data-testid': 'announce-stuck', onclick: () => void this.kit.send('announce stuck', 'action', { action: { type: 'announce-stuck' } }),
    }, 'Announce stuck'));
    this.next = gatedButton(h('button', { type: 'button', 'data-testid': 'next-round', onclick: () => void this.kit.send('next round', 'next-round', {}) }, 'Next round'));
    this.element = h('section', { class: 'panel', 'aria-labelledby': 'ref-zip' }, h('h2', { id: 'ref-zip' }, 'Zip-Zap'), this.mode,
      h('div', { class: 'row gated-row' }, this.flip.element, this.declare.element, this.announce.element, this.next.element), this.tieHost);
  }

  update(): void {
    const view = zipView(this.kit.ctx);
    const seq = this.kit.ctx.store.table(this.kit.ctx.table).state?.seq ?? -1;
    if (view === undefined || seq === this.seq) return;
    this.seq = seq;
    const m = view.mode;
    const nameOf = namesOf(this.kit.ctx.store, this.kit.ctx.table);
    const top = view.top === null ? 'no top card' : `top card ${cardName(view.top.card)}`;
    const tied = view.tie !== null;
    const text = `Round ${view.round}/${view.roundsTotal} · ${tied ? 'TIE' : m.kind}${m.kind === 'PAUSED' ? ` (${nameOf(m.controller)}, ${m.cause})` : ''} · ${top}`;
    if (this.mode.textContent !== text) this.mode.textContent = text;
    const now = m.kind.toLowerCase().replaceAll('_', ' ');
    // While a tie waits for the ruling the engine refuses everything but resolve-tie: say so rather than offer it.
    const race = tied ? 'first rule on the tie below' : m.kind === 'RACE' ? null : `only during the race (now: ${now})`;
    this.flip.set(m.kind === 'START' ? null : `only while the start card waits (now: ${now})`);
    this.declare.set(race);
    this.announce.set(race);
    this.next.set(m.kind === 'ROUND_OVER' ? null : `only after a round is over (now: ${now})`);
    const tieKey = JSON.stringify(view.tie);
    if (tieKey === this.tieKey) return;
    this.tieKey = tieKey;
    replace(this.tieHost, view.tie === null ? null : h('div', { class: 'tie-ruling', 'data-testid': 'tie-ruling' },
      h('p', { 'data-testid': 'tie-figures' }, tieSentence(view.tie, nameOf)),
      h('div', { class: 'row' }, h('span', {}, 'First to land: '),
        // Each button names the player and the card they contend with (both lie face up on the pile).
        view.tie.contenders.map((c) => {
          const label = c.card === null ? nameOf(c.player) : `${nameOf(c.player)} — ${cardName(c.card)}`;
          return h('button', {
            type: 'button', 'data-testid': `resolve-${c.player}`,
            onclick: () => void this.kit.send(`tie: ${label} first`, 'action', { action: { type: 'resolve-tie', first: c.player } }),
          }, label);
        }))));
  }
}
