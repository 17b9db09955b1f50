/** `#/table/<id>/referee` (and `/host`): the buzzer host's controls or the game referee page. */
import { h, replace } from '../dom.ts';
import type { Page, PageContext } from '../page.ts';
import { BuzzerHostPage } from './buzzer-host.ts';
import { RefereePage } from './referee.ts';

/** The referee route: the host's controls on a buzzer table, the game referee page otherwise. */
export class RefereeRoute implements Page {
  readonly element = h('div', { class: 'referee-host' });
  private inner: Page | undefined;
  private kind = '';

  constructor(private readonly ctx: PageContext) {}

  update(): void {
    const state = this.ctx.store.table(this.ctx.table).state;
    const bridgeMode = this.ctx.store.bridgeEntry(this.ctx.table)?.mode;
    const buzzer = state === undefined ? bridgeMode === 'buzzer' : state.mode === 'buzzer';
    const kind = state === undefined && bridgeMode === undefined ? 'none' : buzzer ? 'buzzer' : 'game';
    if (kind !== this.kind) {
      this.kind = kind;
      this.inner?.destroy?.();
      this.inner = kind === 'buzzer' ? new BuzzerHostPage(this.ctx) : kind === 'game' ? new RefereePage(this.ctx) : undefined;
      replace(this.element, this.inner?.element ?? h('p', { class: 'muted' }, 'Waiting for the table\'s state…'));
    }
    this.inner?.update();
  }

  destroy(): void {
    this.inner?.destroy?.();
  }
}
