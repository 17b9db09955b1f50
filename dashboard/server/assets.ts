/**
 * The browser code, bundled once at start-up with esbuild into memory (nothing is written to disk): the
 * page's script `dashboard/web/main.ts` and its stylesheet (`style.css` with uPlot's CSS). Asset names carry
 * a content hash, so they are served as immutable; the HTML page that names them is never cached.
 */
import { projectFile } from '../../controller/config/project-root.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/** One bundled file served at `/assets/<name>`. */
export interface Asset {
  readonly name: string;
  readonly contentType: string;
  readonly body: Buffer;
}

export interface Assets {
  /** The HTML page (the same for every route: the browser router reads the hash). */
  readonly html: string;
  readonly files: ReadonlyMap<string, Asset>;
  /** How long the bundle took, ms (logged at start-up). */
  readonly buildMs: number;
}

const WEB = projectFile('dashboard', 'web');

function hashed(base: string, ext: string, body: Buffer): string {
  return `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
}

/** Bundles the browser code. Throws when it does not compile (a programmer error, found at start-up). */
export async function buildAssets(options: { readonly minify?: boolean } = {}): Promise<Assets> {
  const started = performance.now();
  const result = await build({
    entryPoints: { main: path.join(WEB, 'main.ts'), style: path.join(WEB, 'style.css') },
    bundle: true,
    write: false,
    format: 'esm',
    target: ['es2022', 'chrome100', 'safari15', 'firefox100'],
    platform: 'browser',
    minify: options.minify ?? true,
    sourcemap: false,
    outdir: '/virtual',
    logLevel: 'silent',
    loader: { '.json': 'json' },
    legalComments: 'none',
  });
  const js = result.outputFiles.filter((f) => f.path.endsWith('.js')).map((f) => Buffer.from(f.contents));
  // One stylesheet: ours, which @imports uPlot's.
  const css = result.outputFiles.filter((f) => f.path.endsWith('.css')).map((f) => Buffer.from(f.contents));
  const script = { name: hashed('main', 'js', Buffer.concat(js)), contentType: 'text/javascript; charset=utf-8', body: Buffer.concat(js) };
  const style = { name: hashed('style', 'css', Buffer.concat(css)), contentType: 'text/css; charset=utf-8', body: Buffer.concat(css) };
  const files = new Map<string, Asset>([[script.name, script], [style.name, style]]);
  const template = await readFile(path.join(WEB, 'index.html'), 'utf8');
  const html = template.replace('%SCRIPT%', `/assets/${script.name}`).replace('%STYLE%', `/assets/${style.name}`);
  return { html, files, buildMs: performance.now() - started };
}
