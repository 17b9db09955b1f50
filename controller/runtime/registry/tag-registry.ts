/**
 * The tag registry: which RFID tag (UID in hex) is on which item. Pure data and functions; reading and
 * writing the file is `registry-file.ts`. A tag is on one item only and an item has one tag only, so a
 * duplicate is refused with a code rather than silently overwriting (which would make a barrel "become"
 * another one mid-game).
 */
import { reject, type Checked, type Rejection } from '../../kernel/result.ts';
import { ALL_ITEMS, itemKey, parseItemKey, type Item, type ItemKey } from './items.ts';

export const REGISTRY_VERSION = 1;

export interface TagRegistry {
  readonly version: typeof REGISTRY_VERSION;
  /** Tag UID (uppercase hex, no separators) → item key. */
  readonly tags: Readonly<Record<string, ItemKey>>;
}

export type EnrollRejection =
  | Rejection<'BAD_UID'>
  | (Rejection<'TAG_ALREADY_ENROLLED'> & { readonly item: ItemKey })
  | (Rejection<'ITEM_ALREADY_TAGGED'> & { readonly uid: string });

export const EMPTY_REGISTRY: TagRegistry = { version: REGISTRY_VERSION, tags: {} };

/** 4-, 7- or 10-byte UIDs as the stations report them. */
export function normaliseUid(uid: string): string | undefined {
  const hex = uid.replace(/[:\s-]/g, '').toUpperCase();
  return /^([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/.test(hex) ? hex : undefined;
}

/** The item a tag is on, if enrolled. */
export function lookupTag(registry: TagRegistry, uid: string): Item | undefined {
  const hex = normaliseUid(uid);
  const key = hex === undefined ? undefined : registry.tags[hex];
  return key === undefined ? undefined : parseItemKey(key);
}

/** The enrolled items among `tags` (a pad's tags, in the order they were read); tags not enrolled are left out. */
export function enrolledItems(registry: TagRegistry, tags: readonly string[]): Item[] {
  const out: Item[] = [];
  for (const uid of tags) {
    const item = lookupTag(registry, uid);
    if (item !== undefined) out.push(item);
  }
  return out;
}

/** The tag on an item, if any. */
export function tagOf(registry: TagRegistry, item: Item): string | undefined {
  const key = itemKey(item);
  return Object.keys(registry.tags).find((uid) => registry.tags[uid] === key);
}

/** Enrolls `uid` on `item`. Re-enrolling the same pair is accepted and changes nothing. */
export function enrollTag(registry: TagRegistry, uid: string, item: Item): { ok: true; registry: TagRegistry } | EnrollRejection {
  const hex = normaliseUid(uid);
  if (hex === undefined) return reject('BAD_UID', `"${uid}" is not a 4-, 7- or 10-byte UID in hex`);
  const key = itemKey(item);
  const existing = registry.tags[hex];
  if (existing === key) return { ok: true, registry };
  if (existing !== undefined) {
    return { ok: false, code: 'TAG_ALREADY_ENROLLED', message: `tag ${hex} is already on ${existing}`, item: existing };
  }
  const other = tagOf(registry, item);
  if (other !== undefined) {
    return { ok: false, code: 'ITEM_ALREADY_TAGGED', message: `${key} already has tag ${other}`, uid: other };
  }
  return { ok: true, registry: { ...registry, tags: { ...registry.tags, [hex]: key } } };
}

/** Removes an item's tag (to re-tag a damaged item). */
export function forgetItem(registry: TagRegistry, item: Item): TagRegistry {
  const key = itemKey(item);
  return { ...registry, tags: Object.fromEntries(Object.entries(registry.tags).filter(([, k]) => k !== key)) };
}

/** The items still without a tag, in enrollment order. */
export function missingItems(registry: TagRegistry, items: readonly Item[] = ALL_ITEMS): Item[] {
  const tagged = new Set(Object.values(registry.tags));
  return items.filter((item) => !tagged.has(itemKey(item)));
}

/** Validates a parsed JSON value as a registry; reports every problem at once, each with its path. */
export function parseRegistry(value: unknown): Checked<{ registry: TagRegistry }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, errors: ['(root): must be a JSON object'] };
  const v = value as Record<string, unknown>;
  const errors: string[] = [];
  if (v.version !== REGISTRY_VERSION) errors.push(`version: must be ${REGISTRY_VERSION}`);
  const tags = v.tags;
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) {
    errors.push('tags: must be an object of UID → item');
    return { ok: false, errors };
  }
  const seen = new Map<string, string>();
  for (const [uid, key] of Object.entries(tags as Record<string, unknown>)) {
    if (normaliseUid(uid) !== uid) errors.push(`tags.${uid}: not a normalised UID (uppercase hex, 4, 7 or 10 bytes)`);
    if (typeof key !== 'string' || parseItemKey(key) === undefined) {
      errors.push(`tags.${uid}: ${JSON.stringify(key)} is not an item (barrel:1..13, card:R1..W10, zap:Z1..Z6)`);
      continue;
    }
    const dup = seen.get(key);
    if (dup !== undefined) errors.push(`tags.${uid}: ${key} is already on tag ${dup}`);
    seen.set(key, uid);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, registry: { version: REGISTRY_VERSION, tags: tags as Record<string, ItemKey> } };
}
