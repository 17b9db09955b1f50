/**
 * Loads and saves the tag registry file (default `data/tags.json`).
 */
import { readJsonFile, writeJsonAtomic } from '../json-file.ts';
import { EMPTY_REGISTRY, parseRegistry, type TagRegistry } from './tag-registry.ts';

export type LoadRegistry =
  | { readonly ok: true; readonly registry: TagRegistry; readonly created: boolean }
  | { readonly ok: false; readonly code: 'REGISTRY_UNREADABLE' | 'REGISTRY_CORRUPT'; readonly errors: readonly string[] };

/** A missing file is an empty registry; a corrupted one is an error (never silently replaced). */
export function loadRegistry(file: string): LoadRegistry {
  const read = readJsonFile(file);
  if (!read.ok) {
    if (read.code === 'NOT_FOUND') return { ok: true, registry: EMPTY_REGISTRY, created: true };
    return { ok: false, code: read.code === 'CORRUPT' ? 'REGISTRY_CORRUPT' : 'REGISTRY_UNREADABLE', errors: [read.message] };
  }
  const parsed = parseRegistry(read.value);
  if (!parsed.ok) return { ok: false, code: 'REGISTRY_CORRUPT', errors: parsed.errors.map((e) => `${file}: ${e}`) };
  return { ok: true, registry: parsed.registry, created: false };
}

export function saveRegistry(file: string, registry: TagRegistry): void {
  writeJsonAtomic(file, registry);
}
