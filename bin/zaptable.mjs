#!/usr/bin/env node
// The `zaptable` command. It runs the prebuilt bundle dist/zaptable.mjs (made by `npm ci` through the `prepare`
// script) while that bundle is newer than every source file, and the TypeScript sources through tsx otherwise —
// so an edited source always runs as edited, and a Raspberry Pi runs the lean bundle. ZAPTABLE_FROM_SOURCE=1
// forces the sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'dist', 'zaptable.mjs');

/** The newest modification time of the source files under `dir` (what the bundles are built from). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|css|html|json)$/.test(entry.name)) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function bundleIsCurrent() {
  if (process.env.ZAPTABLE_FROM_SOURCE === '1' || !existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  // dashboard/web too: tools/build.mjs bundles the browser code into dist/web/ beside the controller.
  return ['controller', 'dashboard'].every((dir) => newestSource(path.join(root, dir)) <= built);
}

if (bundleIsCurrent()) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../controller/cli/entry.ts');
}
