// Builds dist/zaptable.mjs: the controller bundled into one ES module (npm packages stay external), run by plain
// `node`. Run by `npm ci`/`npm install` (the `prepare` script). Running from this bundle instead of compiling the
// TypeScript at start-up with tsx saves ~70 MB of resident memory on a Raspberry Pi (no loader thread, no
// transpile caches). bin/zaptable.mjs uses it only while it is newer than every source file.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const started = Date.now();
await build({
  entryPoints: [path.join(root, 'controller', 'cli', 'entry.ts')],
  outfile: path.join(root, 'dist', 'zaptable.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log(`zaptable: built dist/zaptable.mjs in ${Date.now() - started} ms`);
