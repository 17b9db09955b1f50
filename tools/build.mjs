// Builds dist/zaptable.mjs: the controller bundled as ES modules (npm packages stay external), run by plain
// `node`. Split at the commands' dynamic imports (dist/chunks/): a bundle in one file would hoist every package
// import to its top, so each command would load every package (the buzzer hub's johnny-five, the dashboard's
// Fastify and esbuild) — 40-50 MB more resident memory for a command that uses none of them.
// Run by `npm ci`/`npm install` (the `prepare` script). Running from this bundle instead of compiling the
// TypeScript at start-up with tsx saves ~70 MB of resident memory on a Raspberry Pi (no loader thread, no
// transpile caches). bin/zaptable.mjs uses it only while it is newer than every source file.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const started = Date.now();
await build({
  entryPoints: [path.join(root, 'controller', 'cli', 'entry.ts')],
  outdir: path.join(root, 'dist'),
  entryNames: 'zaptable',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`zaptable: built dist/zaptable.mjs in ${Date.now() - started} ms`);
