/**
 * Loads and saves the tag registry file (default `data/tags.json`).
 */
import type { Invalid, Ok } from '../../kernel/result.ts';
import { loadJsonDocument, writeJsonAtomic } from '../json-file.ts';
import { EMPTY_REGISTRY, parseRegistry, type TagRegistry } from './tag-registry.ts';

export type LoadRegistry =
  | Ok<{ readonly registry: TagRegistry; readonly created: boolean }>
  | (Invalid & { readonly code: 'REGISTRY_UNREADABLE' | 'REGISTRY_CORRUPT' });

/** A missing file is an empty registry; a corrupted one is an error (never silently replaced). */
export function loadRegistry(file: string): LoadRegistry {
  const loaded = loadJsonDocument(file, EMPTY_REGISTRY, (value) => {
    const parsed = parseRegistry(value);
    return parsed.ok ? { ok: true, document: parsed.registry } : parsed;
  }, { unreadable: 'REGISTRY_UNREADABLE', corrupt: 'REGISTRY_CORRUPT' });
  return loaded.ok ? { ok: true, registry: loaded.document, created: loaded.created } : loaded;
}

export function saveRegistry(file: string, registry: TagRegistry): void {
  writeJsonAtomic(file, registry);
}
