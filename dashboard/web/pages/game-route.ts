/**
 * `#/table/<id>`: the game page of whatever the table runs (its page from games/registry.ts), the buzzer big
 * screen, or "no game".
 */
import { statusBadge } from '../common.ts';
import { h, replace } from '../dom.ts';
import { gameUi } from '../games/registry.ts';
import type { Page, PageContext } from '../page.ts';
import { BuzzerPage } from './buzzer.ts';

/** The game page switches between the games' pages (games/registry.ts), the buzzer big screen and "no game" as the table's state changes. */
export class GamePage implements Page {
  readonly element = h('div', { class: 'game-host' });
  private inner: Page | undefined;
  private kind = '';

  constructor(private readonly ctx: PageContext) {}

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const state = t.state;
    // A game whose code is still on its way is another kind: the page is built again once it is here.
    const loading = state?.mode === 'game' && gameUi(state.game) === undefined ? ':loading' : '';
    const kind = state === undefined ? 'none' : state.mode === 'game' ? `${state.game}${loading}` : state.mode;
    if (kind !== this.kind) {
      this.kind = kind;
      this.inner?.destroy?.();
      const ui = state?.mode === 'game' ? gameUi(state.game) : undefined;
      this.inner = kind === 'buzzer' ? new BuzzerPage(this.ctx) : ui?.page(this.ctx);
      // Every page has one <h1>: the game pages' is the table's name (the buzzer screen has its own).
      const name = this.ctx.store.bridgeEntry(this.ctx.table)?.name ?? this.ctx.table;
      const title = ui === undefined ? null : h('h1', { class: 'game-title' }, name);
      replace(this.element, title, this.inner?.element ?? h('div', { class: 'panel' },
        h('h1', {}, this.ctx.table), statusBadge(t.status),
        h('p', { 'data-testid': 'no-game' }, kind === 'none' ? 'Waiting for the table\'s state…' : loading === '' ? 'No game is running.' : 'Loading the game…'),
        h('p', {}, h('a', { href: `#/table/${encodeURIComponent(this.ctx.table)}/referee` }, 'Start one on the referee page'))));
    }
    this.inner?.update();
  }

  destroy(): void {
    this.inner?.destroy?.();
  }
}
