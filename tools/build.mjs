// Builds dist/zaptable.mjs and dist/web/ (the dashboard's browser files; `--no-web` skips them): the controller bundled as ES modules (npm packages stay external), run by plain
// `node`. Code-split: what a command imports on demand (the dashboard, the other commands, johnny-five's hub) is
// a chunk of its own in dist/chunks/, and so are the npm packages it imports — in one bundle every package's
// import would be hoisted to the top and loaded by every command (fastify, esbuild and johnny-five in a
// controller with its dashboard off: ~35 MB; docs/performance.md). Run by `npm ci`/`npm install` (the
// `prepare` script). Running from this bundle instead of compiling the TypeScript at start-up with tsx saves
// ~70 MB of resident memory on a Raspberry Pi (no loader thread, no transpile caches). bin/zaptable.mjs uses it only while it is newer than every source file.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// `--outdir DIR` builds elsewhere (a test's own copy; it must be inside the project so that the npm packages,
// left external, still resolve).
const outdirAt = process.argv.indexOf('--outdir');
const dist = outdirAt > 0 && process.argv[outdirAt + 1] ? path.resolve(process.argv[outdirAt + 1]) : path.join(root, 'dist');
const started = Date.now();
const result = await build({
  entryPoints: [path.join(root, 'controller', 'cli', 'entry.ts')],
  outdir: dist,
  entryNames: 'zaptable',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  outExtension: { '.js': '.mjs' },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
  // Where the dashboard's browser files of this build are (dashboard/server/assets.ts), relative to the project.
  define: { ZAPTABLE_PREBUILT_WEB: JSON.stringify(path.relative(root, path.join(dist, 'web'))) },
});
// Chunk names carry a content hash: remove the previous builds' chunks (after writing the new ones, so a
// controller started a moment ago from the old entry still finds its chunks while it starts).
const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(file)));
const chunks = path.join(dist, 'chunks');
for (const name of existsSync(chunks) ? readdirSync(chunks) : []) {
  if (!written.has(path.join(chunks, name))) rmSync(path.join(chunks, name), { force: true });
}
console.log(`zaptable: built ${path.relative(root, path.join(dist, 'zaptable.mjs'))} in ${Date.now() - started} ms`);

// The dashboard's browser code, bundled and compressed (gzip 9, brotli 11) once here instead of at every start of
// the controller: on a Pi that is seconds of CPU, and memory the thread pool keeps (dashboard/server/assets-prebuilt.ts).
if (!process.argv.includes('--no-web')) {
  const webStarted = Date.now();
  const { tsImport } = await import('tsx/esm/api');
  const { buildAssets } = await tsImport('../dashboard/server/assets-bundle.ts', import.meta.url);
  const { newestWebSource, writePrebuiltAssets } = await tsImport('../dashboard/server/assets-prebuilt.ts', import.meta.url);
  const sourcesMtimeMs = newestWebSource();
  const assets = await buildAssets();
  writePrebuiltAssets(path.join(dist, 'web'), assets, sourcesMtimeMs);
  console.log(`zaptable: built ${path.relative(root, path.join(dist, 'web'))} (${assets.files.size} files, compressed) in ${Date.now() - webStarted} ms`);
}
