/**
 * The browser code, bundled with esbuild into memory: the router `dashboard/web/main.ts` and its stylesheet
 * (`style.css` with uPlot's CSS, plus the CSS the games import). The script is split by route (esbuild
 * `splitting`, ES modules): `main` holds the router and the live store, and each page of `web/routes.ts` is a
 * chunk of its own, loaded by `import()` when its route opens, with shared code in shared chunks — a phone opening
 * the overview does not download the health page's uPlot. Asset names carry a content hash, so they are served as
 * immutable; the HTML page that names them is never cached.
 *
 * Every file is compressed here too, once (gzip level 9 and brotli 11), so a phone on a slow Wi-Fi link loads
 * about a third of the bytes and the Pi spends nothing per request (`routes/pages.ts` picks the encoding).
 *
 * `npm ci` runs this once (tools/build.mjs writes the result to dist/web/, `assets-prebuilt.ts`) and the
 * controller reads those files; it bundles at start-up only when they are missing or older than the sources
 * (a developer's edit, the tests). Bundling and compressing at start-up cost a Pi seconds of CPU and left ~12 MB
 * of resident memory behind for good in the thread pool's malloc arenas (docs/performance.md).
 */
import { projectFile } from '../../controller/config/project-root.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { build, stop as stopEsbuild, type Metafile } from 'esbuild';
import type { Asset, Assets } from './assets.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Compressed on libuv's thread pool, not the event loop (a Pi's start-up, the stations already pinging). */
async function compressed(name: string, contentType: string, body: Buffer): Promise<Asset> {
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  return { name, contentType, body, gzip: gz, br };
}

export const WEB = projectFile('dashboard', 'web');

function hashed(base: string, ext: string, body: Buffer): string {
  return `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
}

/** Builds in progress in this process (several dashboards may start at once in a test). */
let building = 0;

/**
 * Bundles the browser code. Throws when it does not compile (a programmer error, found at start-up).
 * esbuild runs as a child process (its Go service) that would otherwise stay alive beside the controller for
 * good, ~28 MB of resident memory on a Pi that bundles once: the last build to finish stops it (a later build
 * starts a new one).
 */
export async function buildAssets(options: { readonly minify?: boolean } = {}): Promise<Assets> {
  building++;
  try {
    return await bundle(options);
  } finally {
    if (--building === 0) await stopEsbuild();
  }
}

async function bundle(options: { readonly minify?: boolean }): Promise<Assets> {
  const started = performance.now();
  const result = await build({
    entryPoints: { main: path.join(WEB, 'main.ts'), style: path.join(WEB, 'style.css') },
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    format: 'esm',
    target: ['es2022', 'chrome100', 'safari15', 'firefox100'],
    platform: 'browser',
    minify: options.minify ?? true,
    sourcemap: false,
    outdir: '/virtual',
    // esbuild's hash covers a file's content and the names of what it imports: a new build has new names.
    entryNames: '[name].[hash]',
    chunkNames: 'chunk.[hash]',
    logLevel: 'silent',
    loader: { '.json': 'json' },
    legalComments: 'none',
  });
  const files = new Map<string, Asset>();
  for (const f of result.outputFiles.filter((o) => o.path.endsWith('.js'))) {
    const name = path.basename(f.path);
    files.set(name, await compressed(name, 'text/javascript; charset=utf-8', Buffer.from(f.contents)));
  }
  const main = [...files.keys()].find((n) => n.startsWith('main.'));
  if (main === undefined) throw new Error('esbuild produced no main script');
  // One stylesheet: ours (which @imports uPlot's), then what the games' chunks import.
  const css = Buffer.concat(result.outputFiles.filter((f) => f.path.endsWith('.css'))
    .sort((a, b) => Number(b.path.includes('/style.')) - Number(a.path.includes('/style.'))).map((f) => Buffer.from(f.contents)));
  const style = await compressed(hashed('style', 'css', css), 'text/css; charset=utf-8', css);
  files.set(style.name, style);
  const template = await readFile(path.join(WEB, 'index.html'), 'utf8');
  const html = template.replace('%SCRIPT%', `/assets/${main}`).replace('%STYLE%', `/assets/${style.name}`);
  const { name: _n, ...page } = await compressed('index.html', 'text/html; charset=utf-8', Buffer.from(html, 'utf8'));
  return {
    html, page, files, buildMs: performance.now() - started, pages: pageScripts(result.metafile, main), source: 'bundled',
  };
}

/**
 * Each page module's scripts: the router and what it imports statically, then the page's chunk and what that
 * imports statically (a shared chunk the router already loaded is counted once).
 */
function pageScripts(metafile: Metafile, main: string): Map<string, string[]> {
  const byName = new Map(Object.entries(metafile.outputs).map(([file, out]) => [path.basename(file), out]));
  const closure = (name: string, into: Set<string>): Set<string> => {
    if (into.has(name)) return into;
    into.add(name);
    for (const i of byName.get(name)?.imports ?? []) if (i.kind === 'import-statement') closure(path.basename(i.path), into);
    return into;
  };
  const router = closure(main, new Set());
  const pages = new Map<string, string[]>([['main.ts', [...router]]]);
  for (const [name, out] of byName) {
    const entry = out.entryPoint;
    if (entry === undefined || !name.endsWith('.js') || name === main) continue;
    const module = path.relative(WEB, path.resolve(entry)).split(path.sep).join('/');
    pages.set(module, [...closure(name, new Set(router))]);
  }
  return pages;
}
