/**
 * The dashboard's browser files as the server holds them: the HTML page and every bundled script and stylesheet,
 * each plain, gzipped and brotli-compressed. `loadAssets` reads the files `npm ci` built into dist/web/
 * (`assets-prebuilt.ts`) and bundles in memory only when those are missing or older than the sources
 * (`assets-bundle.ts`, which loads esbuild: a controller reading prebuilt files never does).
 */
import path from 'node:path';
import { projectFile } from '../../controller/config/project-root.ts';
import { readPrebuiltAssets } from './assets-prebuilt.ts';

/** One bundled file served at `/assets/<name>`. */
export interface Asset {
  readonly name: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** The body gzipped (level 9). */
  readonly gzip: Buffer;
  /** The body as brotli (quality 11). */
  readonly br: Buffer;
}

/** The HTML page with its compressed forms. */
export type CompressedFile = Omit<Asset, 'name'>;

export interface Assets {
  /** The HTML page (the same for every route: the browser router reads the hash). */
  readonly html: string;
  /** The HTML page's bytes, plain and compressed. */
  readonly page: CompressedFile;
  readonly files: ReadonlyMap<string, Asset>;
  /** How long bundling (or reading the prebuilt files) took, ms (logged at start-up). */
  readonly buildMs: number;
  /**
   * What each page downloads, by its module (`pages/health.ts`; `main.ts` is the router every page loads): the
   * script files, every one of them, whose figures `node tools/dashboard-download.mjs` prints (README).
   */
  readonly pages: ReadonlyMap<string, readonly string[]>;
  /** Where they came from: bundled in this process, or read from dist/web/. */
  readonly source: 'bundled' | 'prebuilt';
}

/**
 * Set by tools/build.mjs in the bundle it builds (esbuild `define`): where it wrote the browser files beside that
 * bundle, relative to the project (`dist/web`, or a test's own build folder). Run from the sources: dist/web.
 */
declare const ZAPTABLE_PREBUILT_WEB: string | undefined;

/** Where the prebuilt browser files are for the code that is running. */
export const PREBUILT_DIR = projectFile(typeof ZAPTABLE_PREBUILT_WEB === 'string' ? ZAPTABLE_PREBUILT_WEB : path.join('dist', 'web'));

/**
 * The prebuilt files when they are there and current, else a fresh bundle; `onBundle` hears why it bundles
 * (the code and message of `readPrebuiltAssets`).
 */
export async function loadAssets(
  options: { readonly dir?: string; readonly onBundle?: (why: { code: string; message: string }) => void } = {},
): Promise<Assets> {
  const prebuilt = readPrebuiltAssets(options.dir ?? PREBUILT_DIR);
  if (prebuilt.ok) return prebuilt.assets;
  options.onBundle?.(prebuilt);
  const { buildAssets } = await import('./assets-bundle.ts');
  return buildAssets();
}
