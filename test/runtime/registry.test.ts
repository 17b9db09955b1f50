import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ITEMS, describeItem, itemKey, parseItemKey } from '../../controller/runtime/registry/items.ts';
import { loadRegistry, saveRegistry } from '../../controller/runtime/registry/registry-file.ts';
import {
  EMPTY_REGISTRY, enrollTag, forgetItem, lookupTag, missingItems, normaliseUid, parseRegistry, tagOf,
} from '../../controller/runtime/registry/tag-registry.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'zaptable-registry-'));

describe('items', () => {
  it('lists 13 barrels, 50 number cards and 6 ZAP cards, each with a key that parses back', () => {
    expect(ALL_ITEMS).toHaveLength(69);
    expect(ALL_ITEMS.filter((i) => i.kind === 'barrel')).toHaveLength(13);
    expect(ALL_ITEMS.filter((i) => i.kind === 'zap')).toHaveLength(6);
    for (const item of ALL_ITEMS) expect(parseItemKey(itemKey(item))).toEqual(item);
    expect(parseItemKey('barrel:14')).toBeUndefined();
    expect(parseItemKey('barrel:07')).toBeUndefined();
    expect(parseItemKey('card:Z1')).toBeUndefined();
    expect(parseItemKey('zap:R4')).toBeUndefined();
    expect(describeItem({ kind: 'barrel', value: 1 })).toBe('barrel 1 (1 stone)');
    expect(describeItem({ kind: 'card', card: 'W7' })).toBe('wild 7 card (W7)');
  });
});

describe('tag registry', () => {
  it('normalises 4-, 7- and 10-byte UIDs and refuses others', () => {
    expect(normaliseUid('de:ad:be:ef')).toBe('DEADBEEF');
    expect(normaliseUid('04A1B2C3D4E5F6')).toBe('04A1B2C3D4E5F6');
    expect(normaliseUid('DEADBE')).toBeUndefined();
    expect(normaliseUid('XYZ12345')).toBeUndefined();
  });

  it('enrolls, looks up and refuses duplicates both ways, changing nothing', () => {
    const first = enrollTag(EMPTY_REGISTRY, 'deadbeef', { kind: 'barrel', value: 7 });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const registry = first.registry;
    expect(lookupTag(registry, 'DE:AD:BE:EF')).toEqual({ kind: 'barrel', value: 7 });
    expect(tagOf(registry, { kind: 'barrel', value: 7 })).toBe('DEADBEEF');
    expect(enrollTag(registry, 'DEADBEEF', { kind: 'barrel', value: 7 })).toEqual({ ok: true, registry });
    expect(enrollTag(registry, 'DEADBEEF', { kind: 'card', card: 'R4' })).toMatchObject({ ok: false, code: 'TAG_ALREADY_ENROLLED', item: 'barrel:7' });
    expect(enrollTag(registry, '01020304', { kind: 'barrel', value: 7 })).toMatchObject({ ok: false, code: 'ITEM_ALREADY_TAGGED', uid: 'DEADBEEF' });
    expect(enrollTag(registry, 'nope', { kind: 'barrel', value: 2 })).toMatchObject({ ok: false, code: 'BAD_UID' });
    expect(missingItems(registry)).toHaveLength(68);
    expect(missingItems(forgetItem(registry, { kind: 'barrel', value: 7 }))).toHaveLength(69);
  });

  it('reports every problem of a corrupted registry with its path', () => {
    const parsed = parseRegistry({ version: 2, tags: { deadbeef: 'barrel:1', '01020304': 'barrel:99', '0A0B0C0D': 'barrel:1', 11223344: 'card:R1' } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      'version: must be 1',
      'tags.deadbeef: not a normalised UID (uppercase hex, 4, 7 or 10 bytes)',
      'tags.01020304: "barrel:99" is not an item (barrel:1..13, card:R1..W10, zap:Z1..Z6)',
      'tags.0A0B0C0D: barrel:1 is already on tag deadbeef',
    ]);
  });

  it('saves atomically and loads back; a missing file is empty, a corrupted one is an error and stays as it was', () => {
    const file = path.join(tmp, 'tags.json');
    expect(loadRegistry(file)).toEqual({ ok: true, registry: EMPTY_REGISTRY, created: true });
    const enrolled = enrollTag(EMPTY_REGISTRY, '04A1B2C3D4E5F6', { kind: 'zap', card: 'Z3' });
    if (!enrolled.ok) throw new Error('enroll failed');
    saveRegistry(file, enrolled.registry);
    expect(loadRegistry(file)).toEqual({ ok: true, registry: enrolled.registry, created: false });
    writeFileSync(file, '{"version": 1, "tags": {');
    const corrupt = loadRegistry(file);
    expect(corrupt).toMatchObject({ ok: false, code: 'REGISTRY_CORRUPT' });
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "tags": {');
  });
});
