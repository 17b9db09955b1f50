// What each dashboard page downloads: the page, the stylesheet and the scripts its route loads (the router
// `main`, the page's chunk and the shared chunks they import), plain, gzip 9 and brotli 11, as the dashboard
// serves them. It bundles exactly as the dashboard does at start-up (dashboard/server/assets.ts), so the
// figures are the served bytes; `curl` against a running dashboard gives the same per file (README).
//   node tools/dashboard-download.mjs [--markdown]
import { tsImport } from 'tsx/esm/api';

const { buildAssets } = await tsImport('../dashboard/server/assets.ts', import.meta.url);
const assets = await buildAssets();
const markdown = process.argv.includes('--markdown');
const style = [...assets.files.values()].find((f) => f.name.startsWith('style.'));
const fmt = (n) => n.toLocaleString('en-US');
const sum = (files, key) => files.reduce((a, f) => a + f[key].length, 0);
const rows = [];
for (const [module, names] of [...assets.pages].sort(([a], [b]) => (a === 'main.ts' ? -1 : b === 'main.ts' ? 1 : a.localeCompare(b)))) {
  const scripts = names.map((n) => assets.files.get(n));
  // Every route downloads the page and the stylesheet too.
  const all = [{ body: assets.page.body, gzip: assets.page.gzip, br: assets.page.br }, style, ...scripts];
  rows.push([module === 'main.ts' ? '(router only)' : module, String(scripts.length), fmt(sum(scripts, 'body')), fmt(sum(scripts, 'br')),
    fmt(sum(all, 'body')), fmt(sum(all, 'gzip')), fmt(sum(all, 'br'))]);
}
const head = ['page module', 'scripts', 'script plain', 'script brotli', 'all plain', 'all gzip', 'all brotli'];
if (markdown) {
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} else {
  for (const r of [head, ...rows]) console.log(r.map((c, i) => (i === 0 ? c.padEnd(28) : c.padStart(13))).join(''));
}
console.log(`\nevery script file: ${assets.files.size - 1}; all of them together ${fmt(sum([...assets.files.values()].filter((f) => f.name.endsWith('.js')), 'body'))} B plain; stylesheet ${fmt(style.body.length)} B plain, ${fmt(style.br.length)} B brotli; page ${fmt(assets.page.body.length)} B`);
