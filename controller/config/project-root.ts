/**
 * Files that ship with zaptable (the dashboard's browser code, the example configs) are found from the project's
 * root, not from the calling module's folder: the same code runs from its TypeScript sources and from the prebuilt
 * bundle in `dist/`, whose folders differ.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

function isZaptableRoot(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'zaptable';
  } catch {
    return false;
  }
}

/** The folder holding zaptable's package.json (found once, walking up from this module). */
export function projectRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!isZaptableRoot(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('zaptable: cannot find the project folder (package.json named zaptable)');
    dir = parent;
  }
  root = dir;
  return root;
}

/** A path inside the project, e.g. `projectFile('docs', 'config-examples')`. */
export function projectFile(...parts: string[]): string {
  return path.join(projectRoot(), ...parts);
}
