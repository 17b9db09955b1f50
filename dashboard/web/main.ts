/**
 * The dashboard page: reads `/api/info`, opens the live stream and routes by the URL hash:
 *   #/                       overview of every table
 *   #/table/<id>             the game (its page from games/registry.ts, whatever the table runs), or the buzzer big screen
 *   #/table/<id>/health      station health and pad weights
 *   #/table/<id>/referee     referee controls (a buzzer table: the host's controls; also #/table/<id>/host)
 *   #/table/<id>/simulator   simulator panel (simulated tables)
 *   #/table/<id>/record[/<game>]  the game record from the controller's log (pages/record.ts)
 * Pages re-render from the store at most once per animation frame.
 */
import { h, replace } from './dom.ts';
import { LiveStore } from './live-client.ts';
import type { DashboardInfo, Page, PageContext } from './page.ts';
import { BuzzerPage } from './pages/buzzer.ts';
import { BuzzerHostPage } from './pages/buzzer-host.ts';
import { HealthPage } from './pages/health.ts';
import { OverviewPage } from './pages/overview.ts';
import { RecordPage } from './pages/record.ts';
import { RefereePage } from './pages/referee.ts';
import { SimulatorPage } from './pages/simulator.ts';
import { gameUi } from './games/registry.ts';
import { statusBadge } from './common.ts';

type Route =
  | { readonly page: 'overview' }
  | { readonly page: 'game' | 'health' | 'referee' | 'simulator'; readonly table: string }
  | { readonly page: 'record'; readonly table: string; readonly game?: number };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '').map(decodeURIComponent);
  if (parts[0] === 'table' && parts[1] !== undefined) {
    const sub = parts[2];
    if (sub === 'health' || sub === 'referee' || sub === 'simulator') return { page: sub, table: parts[1] };
    if (sub === 'host') return { page: 'referee', table: parts[1] };
    if (sub === 'record') {
      const game = Number(parts[3]);
      return Number.isInteger(game) && game > 0 ? { page: 'record', table: parts[1], game } : { page: 'record', table: parts[1] };
    }
    return { page: 'game', table: parts[1] };
  }
  return { page: 'overview' };
}

/** The game page switches between the games' pages (games/registry.ts), the buzzer big screen and "no game" as the table's state changes. */
class GamePage implements Page {
  readonly element = h('div', { class: 'game-host' });
  private inner: Page | undefined;
  private kind = '';

  constructor(private readonly ctx: PageContext) {}

  update(): void {
    const t = this.ctx.store.table(this.ctx.table);
    const state = t.state;
    const kind = state === undefined ? 'none' : state.mode === 'game' ? state.game : state.mode;
    if (kind !== this.kind) {
      this.kind = kind;
      this.inner?.destroy?.();
      const ui = kind === 'buzzer' ? undefined : gameUi(kind);
      this.inner = kind === 'buzzer' ? new BuzzerPage(this.ctx) : ui?.page(this.ctx);
      // Every page has one <h1>: the game pages' is the table's name (the buzzer screen has its own).
      const name = this.ctx.store.bridgeEntry(this.ctx.table)?.name ?? this.ctx.table;
      const title = ui === undefined ? null : h('h1', { class: 'game-title' }, name);
      replace(this.element, title, this.inner?.element ?? h('div', { class: 'panel' },
        h('h1', {}, this.ctx.table), statusBadge(t.status),
        h('p', { 'data-testid': 'no-game' }, kind === 'none' ? 'Waiting for the table\'s state…' : 'No game is running.'),
        h('p', {}, h('a', { href: `#/table/${encodeURIComponent(this.ctx.table)}/referee` }, 'Start one on the referee page'))));
    }
    this.inner?.update();
  }

  destroy(): void {
    this.inner?.destroy?.();
  }
}

/** The referee route: the host's controls on a buzzer table, the game referee page otherwise. */
class RefereeRoute implements Page {
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

function makePage(route: Route, store: LiveStore, info: DashboardInfo): Page {
  if (route.page === 'overview') return new OverviewPage(store);
  const ctx: PageContext = { store, info, table: route.table };
  switch (route.page) {
    case 'game': return new GamePage(ctx);
    case 'health': return new HealthPage(ctx);
    case 'referee': return new RefereeRoute(ctx);
    case 'simulator': return new SimulatorPage(ctx);
    case 'record': return new RecordPage(ctx, route.game);
  }
}

const PAGE_NAME: Readonly<Record<Route['page'], string>> = {
  overview: 'Overview', game: 'Game', health: 'Health', referee: 'Referee', simulator: 'Simulator', record: 'Record',
};

/**
 * The nav and the window title. Both are written only when they change: a live update must not rebuild the
 * links (it would drop the keyboard focus on one) nor re-announce the title.
 */
function renderNav(nav: HTMLElement, route: Route, store: LiveStore, info: DashboardInfo): void {
  const links: [Route['page'], string, string][] = [['overview', '#/', 'Overview']];
  let title = 'Tables — zaptable';
  if (route.page !== 'overview') {
    const id = encodeURIComponent(route.table);
    const bridge = store.bridgeEntry(route.table);
    const simulated = bridge?.simulated ?? info.simulated;
    const name = bridge?.name ?? route.table;
    const buzzer = bridge?.mode === 'buzzer' || store.table(route.table).state?.mode === 'buzzer';
    links.push(['game', `#/table/${id}`, name], ['health', `#/table/${id}/health`, 'Health'],
      ['referee', `#/table/${id}/referee`, buzzer ? 'Host' : 'Referee']);
    if (simulated) links.push(['simulator', `#/table/${id}/simulator`, 'Simulator']);
    if (!buzzer) links.push(['record', `#/table/${id}/record`, 'Record']);
    const page = route.page === 'referee' && buzzer ? 'Host' : route.page === 'game' ? (buzzer ? 'Big screen' : 'Game') : PAGE_NAME[route.page];
    title = `${page} — ${name} — zaptable`;
  }
  if (document.title !== title) document.title = title;
  const key = JSON.stringify([links, route.page]);
  if (nav.dataset.key === key) return;
  nav.dataset.key = key;
  replace(nav, links.map(([page, href, label]) => h('a', { href, 'aria-current': page === route.page ? 'page' : null }, label)));
  // On a phone the links are one row that scrolls sideways: show the current one.
  nav.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

async function boot(): Promise<void> {
  const info = await fetch('/api/info').then(async (r) => r.json() as Promise<DashboardInfo>)
    .catch(() => ({ baseTopic: 'zaptable', simulated: false }));
  const store = new LiveStore(info.baseTopic);
  const main = document.getElementById('main') as HTMLElement;
  const nav = document.getElementById('nav') as HTMLElement;
  const conn = document.getElementById('conn') as HTMLElement;
  let route = parseRoute(location.hash);
  let page = makePage(route, store, info);
  let scheduled = false;
  const render = (): void => {
    scheduled = false;
    conn.textContent = store.connected ? 'live' : 'reconnecting…';
    conn.className = `conn ${store.connected ? 'up' : 'down'}`;
    renderNav(nav, route, store, info);
    page.update();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(render);
  };
  replace(main, page.element);
  window.addEventListener('hashchange', () => {
    page.destroy?.();
    route = parseRoute(location.hash);
    page = makePage(route, store, info);
    replace(main, page.element);
    render();
    main.focus({ preventScroll: true });
  });
  store.onChange((table) => {
    if (table === undefined || route.page === 'overview' || route.table === table) schedule();
  });
  store.connect();
  render();
}

void boot();
