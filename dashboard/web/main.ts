/**
 * The dashboard page: reads `/api/info`, opens the live stream and routes by the URL hash. The routes, their
 * nav links and titles are listed in `routes.ts` (one line per page); each page's code is loaded by `import()`
 * when its route first opens. Pages re-render from the store at most once per animation frame.
 */
import { h, replace } from './dom.ts';
import { LiveStore } from './live-client.ts';
import type { DashboardInfo, Page } from './page.ts';
import { parseRoute, ROUTES, routeHref, type RouteFacts, type RouteMatch } from './routes.ts';

function factsOf(route: RouteMatch, store: LiveStore, info: DashboardInfo): RouteFacts {
  // A page of no table asks for none (`store.table('')` would list a nameless table on the overview).
  if (!route.def.table) return { name: '', buzzer: false, simulated: info.simulated, args: route.args };
  const bridge = store.bridgeEntry(route.table);
  return {
    name: bridge?.name ?? route.table,
    buzzer: bridge?.mode === 'buzzer' || store.table(route.table).state?.mode === 'buzzer',
    simulated: bridge?.simulated ?? info.simulated,
    args: route.args,
  };
}

/**
 * The nav and the window title. Both are written only when they change: a live update must not rebuild the
 * links (it would drop the keyboard focus on one) nor re-announce the title.
 */
function renderNav(nav: HTMLElement, route: RouteMatch, store: LiveStore, info: DashboardInfo): void {
  const facts = factsOf(route, store, info);
  const shown = ROUTES.filter((r) => !r.table || route.def.table);
  const links = shown.flatMap((r) => {
    const label = r.nav(facts);
    return label === null ? [] : [{ r, label, href: r.table ? routeHref(r.path, route.table) : routeHref(r.path) }];
  });
  const title = route.def.table ? `${route.def.title(facts)} — ${facts.name} — zaptable` : `${route.def.title(facts)} — zaptable`;
  if (document.title !== title) document.title = title;
  const key = JSON.stringify([links.map((l) => [l.href, l.label]), ROUTES.indexOf(route.def)]);
  if (nav.dataset.key === key) return;
  nav.dataset.key = key;
  replace(nav, links.map((l) => h('a', { href: l.href, 'aria-current': l.r === route.def ? 'page' : null }, l.label)));
  // On a phone the links are one row that scrolls sideways: show the current one.
  nav.querySelector('[aria-current]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/** The game a table runs now, or that its configuration names (before its first state). */
function currentGame(route: RouteMatch, store: LiveStore): string | undefined {
  if (!route.def.table) return undefined;
  const state = store.table(route.table).state;
  return state?.mode === 'game' ? state.game : store.bridgeEntry(route.table)?.mode;
}

type Registry = typeof import('./games/registry.ts');

/**
 * The game registry, itself loaded on demand: the pages of no game (health, notices…) never download the games'
 * summaries. Set once the first page that needs games has loaded it.
 */
let registry: Registry | undefined;

/** The games' code the route's page needs (`RouteDef.games`), after the registry. */
async function gamesFor(route: RouteMatch, store: LiveStore, loaded: () => void): Promise<void> {
  if (route.def.games === undefined) return;
  if (registry === undefined) {
    registry = await import('./games/registry.ts');
    registry.onGameLoaded(loaded);
  }
  if (route.def.games === 'all') await registry.loadAllGameUis();
  const game = route.def.games === 'current' ? currentGame(route, store) : undefined;
  if (game !== undefined) await registry.loadGameUi(game);
}

/** A page whose code is still loading (a chunk away): what the route shows meanwhile. */
function loadingPage(): Page {
  return { element: h('p', { class: 'muted' }, 'Loading…'), update: () => undefined };
}

async function boot(): Promise<void> {
  const info = await fetch('/api/info').then(async (r) => r.json() as Promise<DashboardInfo>)
    .catch(() => ({ baseTopic: 'zaptable', simulated: false }));
  const store = new LiveStore(info.baseTopic);
  const main = document.getElementById('main') as HTMLElement;
  const nav = document.getElementById('nav') as HTMLElement;
  const conn = document.getElementById('conn') as HTMLElement;
  let route = parseRoute(location.hash);
  let page = loadingPage();
  let scheduled = false;
  const render = (): void => {
    scheduled = false;
    conn.textContent = store.connected ? 'live' : 'reconnecting…';
    conn.className = `conn ${store.connected ? 'up' : 'down'}`;
    renderNav(nav, route, store, info);
    // A game started while the page is open: its code first, then the page draws it (onGameLoaded).
    const game = route.def.games === 'current' ? currentGame(route, store) : undefined;
    if (game !== undefined && registry?.gameUi(game) === undefined) void registry?.loadGameUi(game);
    page.update();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(render);
  };
  /**
   * Opens the route's page once its chunk is loaded and the live snapshot is in (a later hash change wins over
   * a slow chunk). Until then the page says "Loading…": it is replaced whole, which moves nothing that was there.
   */
  const open = async (wanted: RouteMatch, focus: boolean): Promise<void> => {
    // The page's code and the live snapshot arrive together; at most 4 s for the snapshot (a slow broker):
    // the page then starts with what there is.
    const [make] = await Promise.all([wanted.def.load().catch((error: unknown) => {
      console.error('page failed to load', error);
      return () => ({ element: h('p', { role: 'alert' }, 'This page could not be loaded: reload to try again.'), update: () => undefined });
    }), store.whenSynced(4000).then(async () => gamesFor(wanted, store, schedule)).catch((error: unknown) => {
      // Without a game's code the page says it has no page for that game; a reload tries again.
      console.error('game code failed to load', error);
    })]);
    if (wanted !== route) return;
    page.destroy?.();
    page = make({ store, info, table: wanted.table, args: wanted.args });
    replace(main, page.element);
    render();
    if (focus) main.focus({ preventScroll: true });
  };
  window.addEventListener('hashchange', () => {
    route = parseRoute(location.hash);
    void open(route, true);
  });
  store.onChange((table) => {
    if (table === undefined || !route.def.table || route.table === table) schedule();
  });
  store.connect();
  render();
  await open(route, false);
}

void boot();
