/**
 * The dashboard's bundled files on disk: tools/build.mjs (run by `npm ci`) bundles and compresses them once into
 * dist/web/ — `index.html` and `assets/<name>`, each with its `.gz` and `.br` beside it, and `manifest.json` last —
 * and the controller reads them at start-up instead of bundling. They are used only while they are newer than
 * every file of dashboard/web/ (and the bundler's settings): an edited source is never served stale.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectFile } from '../../controller/config/project-root.ts';
import type { Asset, Assets } from './assets.ts';

const MANIFEST = 'manifest.json';
const FORMAT = 1;

interface Manifest {
  readonly format: number;
  /** The newest modification time of the sources when they were bundled, ms since the epoch. */
  readonly sourcesMtimeMs: number;
  readonly html: string;
  readonly files: readonly { readonly name: string; readonly contentType: string }[];
  readonly pages: Readonly<Record<string, readonly string[]>>;
}

export type PrebuiltRead =
  | { readonly ok: true; readonly assets: Assets }
  | { readonly ok: false; readonly code: 'PREBUILT_MISSING' | 'PREBUILT_STALE' | 'PREBUILT_CORRUPT'; readonly message: string };

/** What the bundle is made of: the browser sources and the bundler's own settings. */
const SOURCES = [projectFile('dashboard', 'web'), projectFile('dashboard', 'server', 'assets-bundle.ts')];

/** The newest modification time among the files the bundle is made of, ms since the epoch. */
export function newestWebSource(sources: readonly string[] = SOURCES): number {
  let newest = 0;
  for (const source of sources) {
    const stat = statSync(source);
    if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
    else {
      for (const entry of readdirSync(source, { withFileTypes: true, recursive: true })) {
        if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

const HTML_TYPE = 'text/html; charset=utf-8';

function writeCompressed(file: string, body: Buffer, gzip: Buffer, br: Buffer): void {
  writeFileSync(file, body);
  writeFileSync(`${file}.gz`, gzip);
  writeFileSync(`${file}.br`, br);
}

/**
 * Writes `assets` to `dir` (replacing what was there), the manifest last: a build cut short leaves no manifest,
 * and no manifest means no prebuilt files. `sourcesMtimeMs` is taken before bundling, so an edit made while it
 * ran makes the result stale, not current.
 */
export function writePrebuiltAssets(dir: string, assets: Assets, sourcesMtimeMs: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeCompressed(path.join(dir, 'index.html'), assets.page.body, assets.page.gzip, assets.page.br);
  for (const asset of assets.files.values()) writeCompressed(path.join(dir, 'assets', asset.name), asset.body, asset.gzip, asset.br);
  const manifest: Manifest = {
    format: FORMAT, sourcesMtimeMs, html: assets.html,
    files: [...assets.files.values()].map((a) => ({ name: a.name, contentType: a.contentType })),
    pages: Object.fromEntries(assets.pages),
  };
  writeFileSync(path.join(dir, `${MANIFEST}.tmp`), `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(path.join(dir, `${MANIFEST}.tmp`), path.join(dir, MANIFEST));
}

function isManifest(value: unknown): value is Manifest {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const isFile = (f: unknown): boolean => {
    const file = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>;
    // A plain file name: the manifest must not lead the reader out of its folder.
    return typeof file.name === 'string' && /^[\w-][\w.-]*$/.test(file.name) && typeof file.contentType === 'string';
  };
  return m.format === FORMAT && typeof m.sourcesMtimeMs === 'number' && typeof m.html === 'string'
    && Array.isArray(m.files) && m.files.every(isFile)
    && typeof m.pages === 'object' && m.pages !== null && Object.values(m.pages).every(isStrings);
}

/**
 * Reads dist/web/ as the server holds it. Synchronous on purpose: a few hundred kB at start-up, and reads on the
 * thread pool would only cost more memory there.
 */
export function readPrebuiltAssets(dir: string, sources: readonly string[] = SOURCES): PrebuiltRead {
  const started = performance.now();
  let raw: string;
  try {
    raw = readFileSync(path.join(dir, MANIFEST), 'utf8');
  } catch {
    return { ok: false, code: 'PREBUILT_MISSING', message: `no ${path.join(dir, MANIFEST)} (npm run build writes it)` };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'PREBUILT_CORRUPT', message: `${path.join(dir, MANIFEST)} is not JSON` };
  }
  if (!isManifest(manifest)) return { ok: false, code: 'PREBUILT_CORRUPT', message: `${path.join(dir, MANIFEST)} is not a manifest of format ${FORMAT}` };
  if (newestWebSource(sources) > manifest.sourcesMtimeMs) {
    return { ok: false, code: 'PREBUILT_STALE', message: `${dir} is older than the dashboard's sources` };
  }
  const read = (file: string): { body: Buffer; gzip: Buffer; br: Buffer } => ({
    body: readFileSync(file), gzip: readFileSync(`${file}.gz`), br: readFileSync(`${file}.br`),
  });
  try {
    const files = new Map<string, Asset>(manifest.files.map((f) => [f.name, { ...f, ...read(path.join(dir, 'assets', f.name)) }]));
    const listed = Object.values(manifest.pages).flat().filter((name) => !files.has(name));
    if (listed.length > 0) return { ok: false, code: 'PREBUILT_CORRUPT', message: `the manifest names scripts it does not list: ${listed.join(', ')}` };
    return {
      ok: true,
      assets: {
        html: manifest.html, page: { contentType: HTML_TYPE, ...read(path.join(dir, 'index.html')) }, files,
        pages: new Map(Object.entries(manifest.pages)), buildMs: performance.now() - started, source: 'prebuilt',
      },
    };
  } catch (error) {
    return { ok: false, code: 'PREBUILT_CORRUPT', message: `a file the manifest lists is unreadable: ${(error as Error).message}` };
  }
}
