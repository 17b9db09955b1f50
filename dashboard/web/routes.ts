/**
 * Every page of the dashboard, one line each: its path, its nav link, its window title and how to load it.
 * Each page's code is a chunk of its own (`dashboard/server/assets-bundle.ts` splits the bundle at every `import()`),
 * downloaded when its route first opens, so a phone on the overview never loads the health page's plots.
 *
 * Adding a page is one line in `ROUTES` (dashboard/README.md, "Adding a page"): its module exports the page
 * (`Page`, page.ts), `load` imports it with `import()` — never a static import, which would put it back into
 * every page's download.
 */
import type { Page, PageContext } from './page.ts';

/** What the nav and the title say of the table on screen. */
export interface RouteFacts {
  /** The table's configured name (its id when none). */
  readonly name: string;
  readonly buzzer: boolean;
  readonly simulated: boolean;
  /** The path's parts after the route's own (`#/table/t1/station/seat-1` → `['seat-1']`). */
  readonly args: readonly string[];
}

export type PageMaker = (ctx: PageContext) => Page;

export interface RouteDef {
  /** `#/<path>` for a page of no table, `#/table/<id>/<path>` for a table's page ('' is the game page). */
  readonly path: string;
  readonly table: boolean;
  /** Other paths that open it. */
  readonly aliases?: readonly string[];
  /** The nav link's text, or null for no link (a page reached from another, or not offered here). */
  readonly nav: (f: RouteFacts) => string | null;
  /** The page's part of the window title ("Health" → "Health — Table 1 — zaptable"). */
  readonly title: (f: RouteFacts) => string;
  readonly load: () => Promise<PageMaker>;
  /**
   * The games' code the page needs (`games/registry.ts`), loaded before it mounts: the table's current game
   * (`'current'`: a game page), or every game (`'all'`: a page that may start or show any game). Default none.
   */
  readonly games?: 'current' | 'all';
}

/** `#/`: every table. Also where an unknown `#/…` leads. */
const OVERVIEW: RouteDef = {
  path: '', table: false, nav: () => 'Overview', title: () => 'Tables', load: async () => import('./pages/overview.ts').then((m) => (ctx) => new m.OverviewPage(ctx.store)),
};

export const ROUTES: readonly RouteDef[] = [
  OVERVIEW,
  { path: 'config', table: false, nav: () => 'Configuration', title: () => 'Configuration', load: async () => import('./pages/config.ts').then((m) => (ctx) => new m.ConfigPage(ctx)) },
  { path: '', table: true, games: 'current', nav: (f) => f.name, title: (f) => (f.buzzer ? 'Big screen' : 'Game'), load: async () => import('./pages/game-route.ts').then((m) => (ctx) => new m.GamePage(ctx)) },
  { path: 'health', table: true, nav: () => 'Health', title: () => 'Health', load: async () => import('./pages/health.ts').then((m) => (ctx) => new m.HealthPage(ctx)) },
  { path: 'station', table: true, nav: () => null, title: (f) => `Station ${f.args[0] ?? '?'}`, load: async () => import('./pages/station.ts').then((m) => (ctx) => new m.StationPage(ctx)) },
  { path: 'notices', table: true, nav: () => 'Notices', title: () => 'Notices', load: async () => import('./pages/notices.ts').then((m) => (ctx) => new m.NoticesPage(ctx)) },
  { path: 'referee', table: true, games: 'all', aliases: ['host'], nav: (f) => (f.buzzer ? 'Host' : 'Referee'), title: (f) => (f.buzzer ? 'Host' : 'Referee'), load: async () => import('./pages/referee-route.ts').then((m) => (ctx) => new m.RefereeRoute(ctx)) },
  // A past game may be of any game: its record needs that game's parts (chart, step view).
  { path: 'record', table: true, games: 'all', nav: (f) => (f.buzzer ? null : 'Record'), title: (f) => (f.args[0] === undefined ? 'Record' : `Record of game ${f.args[0]}`), load: async () => import('./pages/record.ts').then((m) => (ctx) => new m.RecordPage(ctx, gameNumber(ctx.args?.[0]))) },
  { path: 'simulator', table: true, games: 'all', nav: (f) => (f.simulated ? 'Simulator' : null), title: () => 'Simulator', load: async () => import('./pages/simulator.ts').then((m) => (ctx) => new m.SimulatorPage(ctx)) },
];

/** `#/table/t1/record/7` → 7; anything but a positive whole number → the table's latest game. */
function gameNumber(arg: string | undefined): number | undefined {
  const n = Number(arg);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A parsed `#/…`: the route, its table ('' for a page of no table) and the parts after the route's path. */
export interface RouteMatch {
  readonly def: RouteDef;
  readonly table: string;
  readonly args: readonly string[];
}

export function parseRoute(hash: string): RouteMatch {
  const parts = hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const named = (table: boolean, path: string): RouteDef | undefined =>
    ROUTES.find((r) => r.table === table && (r.path === path || r.aliases?.includes(path) === true));
  if (parts[0] === 'table' && parts[1] !== undefined) {
    const sub = named(true, parts[2] ?? '');
    // An unknown sub-page shows the table's game page, as before routes were listed.
    return sub === undefined ? { def: named(true, '') ?? OVERVIEW, table: parts[1], args: [] } : { def: sub, table: parts[1], args: parts.slice(3) };
  }
  return { def: named(false, parts[0] ?? '') ?? OVERVIEW, table: '', args: parts.slice(1) };
}

/** The `#/…` of a route (`routeHref('health', 't1')`). */
export function routeHref(path: string, table?: string, ...args: string[]): string {
  const parts = table === undefined ? [path, ...args] : ['table', table, path, ...args];
  return `#/${parts.filter((p) => p !== '').map(encodeURIComponent).join('/')}`;
}
