// What each dashboard page downloads: the HTML page, the stylesheet and the scripts its route loads — the router
// `main`, the page's chunk, the games' code it needs (`games` in dashboard/web/routes.ts: the table's current
// game, one row per game, or all of them) and the shared chunks they import — plain, gzip 9 and brotli 11, as the
// dashboard serves them. It bundles exactly as `npm ci` does for the dashboard (dashboard/server/assets-bundle.ts), so
// the figures are the served bytes; `curl` against a running dashboard gives the same per file (README).
//   node tools/dashboard-download.mjs [--markdown]
import { readFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

const { buildAssets } = await tsImport('../dashboard/server/assets-bundle.ts', import.meta.url);
const assets = await buildAssets();
const markdown = process.argv.includes('--markdown');
const style = [...assets.files.values()].find((f) => f.name.startsWith('style.'));
const fmt = (n) => n.toLocaleString('en-US');
const sum = (files, key) => files.reduce((a, f) => a + f[key].length, 0);
const scriptsOf = (module) => {
  const names = assets.pages.get(module);
  if (names === undefined) throw new Error(`no chunk for ${module}`);
  return names;
};

// The routes, read from their one-line registrations (routes.ts): path, the games they need, the page module.
const routesSource = readFileSync(new URL('../dashboard/web/routes.ts', import.meta.url), 'utf8');
const games = [...readFileSync(new URL('../dashboard/web/games/registry.ts', import.meta.url), 'utf8')
  .matchAll(/import\('\.\/([^']+\/index\.ts)'\)/g)].map((m) => `games/${m[1]}`);
const routes = [];
for (const line of routesSource.split('\n')) {
  const module = /import\('\.\/([^']+)'\)/.exec(line)?.[1];
  const path = /path: '([^']*)'/.exec(line)?.[1];
  if (module === undefined || path === undefined) continue;
  const table = /table: true/.test(line);
  const need = /games: '(current|all)'/.exec(line)?.[1];
  const href = table ? `#/table/<id>${path === '' ? '' : `/${path}`}` : `#/${path}`;
  if (need === 'current') for (const g of games) routes.push([`${href} (${g.split('/')[1]})`, [module, 'games/registry.ts', g]]);
  else routes.push([href, need === 'all' ? [module, 'games/registry.ts', ...games] : [module]]);
}

const rows = routes.map(([label, modules]) => {
  const scripts = [...new Set(modules.flatMap(scriptsOf))].map((n) => assets.files.get(n));
  // Every route downloads the HTML page and the stylesheet too.
  const all = [{ body: assets.page.body, gzip: assets.page.gzip, br: assets.page.br }, style, ...scripts];
  return [label, String(scripts.length), fmt(sum(scripts, 'body')), fmt(sum(scripts, 'br')), fmt(sum(all, 'body')), fmt(sum(all, 'gzip')), fmt(sum(all, 'br'))];
});
const head = ['route', 'scripts', 'script plain', 'script brotli', 'all plain', 'all gzip', 'all brotli'];
if (markdown) {
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} else {
  for (const r of [head, ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(36) : c.padStart(14))).join(''));
}
const js = [...assets.files.values()].filter((f) => f.name.endsWith('.js'));
console.log(`\nscript files: ${js.length}, together ${fmt(sum(js, 'body'))} B plain; stylesheet ${fmt(style.body.length)} B plain, `
  + `${fmt(style.br.length)} B brotli; the HTML page ${fmt(assets.page.body.length)} B`);
