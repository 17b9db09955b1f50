/**
 * The enrollment state machine with fake tag events: prompts, duplicates refused with nothing saved, the
 * tag leaving before the next item, resuming from the saved file, `--redo` and `--only` selection.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_ITEMS, type Item } from '../../controller/runtime/registry/items.ts';
import { loadRegistry, saveRegistry } from '../../controller/runtime/registry/registry-file.ts';
import { EMPTY_REGISTRY, enrollTag, forgetItem, type TagRegistry } from '../../controller/runtime/registry/tag-registry.ts';
import { EnrollSession, type EnrollUpdate } from '../../controller/runtime/setup/enroll-session.ts';
import { parseItemName, selectItems } from '../../controller/runtime/setup/item-selection.ts';
import { settled, tagArrived, tagLeft } from './fakes.ts';

const B1: Item = { kind: 'barrel', value: 1 };
const B2: Item = { kind: 'barrel', value: 2 };
const B3: Item = { kind: 'barrel', value: 3 };
const A = '04AAAAAAAAAAAA';
const B = '04BBBBBBBBBBBB';
const C = '04CCCCCCCCCCCC';

function session(items: readonly Item[], registry: TagRegistry = EMPTY_REGISTRY, save?: (r: TagRegistry) => void) {
  const updates: EnrollUpdate[] = [];
  const saved: TagRegistry[] = [];
  const s = new EnrollSession({
    registry, items, station: 'seat-1',
    save: save ?? ((r) => saved.push(r)),
    onUpdate: (u) => updates.push(u),
  });
  return { s, updates, saved, last: () => updates.at(-1) };
}

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('enroll session', () => {
  it('asks for each item, enrolls the tag that arrives, saves after each item, and waits for the tag to leave', () => {
    const { s, updates, saved, last } = session([B1, B2]);
    s.start();
    expect(last()).toEqual({ kind: 'place', item: B1, text: 'Place barrel 1 (1 stone) on seat-1', progress: { done: 0, total: 2 } });
    s.handle(tagArrived(A));
    expect(saved).toHaveLength(1);
    expect(saved[0]?.tags).toEqual({ [A]: 'barrel:1' });
    expect(updates.slice(-2)).toEqual([
      { kind: 'enrolled', item: B1, uid: A, progress: { done: 1, total: 2 } },
      { kind: 'lift', uid: A, text: 'Take barrel 1 (1 stone) off seat-1' },
    ]);
    s.handle(tagLeft(A));
    expect(last()).toMatchObject({ kind: 'place', item: B2, progress: { done: 1, total: 2 } });
    s.handle(tagArrived(B));
    s.handle(tagLeft(B));
    expect(last()).toEqual({ kind: 'done', progress: { done: 2, total: 2 } });
    expect(s.succeeded).toBe(true);
    expect(saved.at(-1)?.tags).toEqual({ [A]: 'barrel:1', [B]: 'barrel:2' });
  });

  it('refuses a tag already on another item, naming that item, and saves nothing; the same item is asked for again', () => {
    const { s, updates, saved, last } = session([B1, B2]);
    s.start();
    s.handle(tagArrived(A));
    s.handle(tagLeft(A));
    const before = saved.length;
    s.handle(tagArrived(A)); // barrel 1's tag put down again for barrel 2
    expect(saved).toHaveLength(before);
    const rejected = updates.find((u) => u.kind === 'rejected');
    expect(rejected).toMatchObject({ kind: 'rejected', code: 'TAG_ALREADY_ENROLLED', uid: A, item: B2 });
    expect(rejected?.kind === 'rejected' && rejected.message).toBe(
      `tag ${A} is already on barrel 1 (1 stone): nothing saved. Take it away and place barrel 2 (2 stones)`,
    );
    expect(last()).toMatchObject({ kind: 'lift', uid: A });
    s.handle(tagLeft(A));
    expect(last()).toMatchObject({ kind: 'place', item: B2, progress: { done: 1, total: 2 } });
    s.handle(tagArrived(B));
    expect(s.registry.tags).toEqual({ [A]: 'barrel:1', [B]: 'barrel:2' });
  });

  it('refuses a malformed UID without saving', () => {
    const { s, saved, updates } = session([B1]);
    s.start();
    s.handle(tagArrived('XYZ'));
    expect(saved).toEqual([]);
    expect(updates.find((u) => u.kind === 'rejected')).toMatchObject({ code: 'BAD_UID' });
  });

  it('reads one tag once: nothing is enrolled until the tag has left, whatever arrives meanwhile', () => {
    const { s, saved, last } = session([B1, B2, B3]);
    s.start();
    s.handle(tagArrived(A));
    s.handle(tagArrived(A)); // a re-read while it lies there
    s.handle(tagArrived(B)); // another tag while the first has not been reported gone
    s.handle(tagLeft(B));
    s.handle(settled(25));
    expect(saved).toHaveLength(1);
    expect(last()).toMatchObject({ kind: 'lift', uid: A });
    s.handle(tagLeft(A, 'seat-2')); // the same UID leaving another station's reader
    expect(last()).toMatchObject({ kind: 'lift', uid: A });
    s.handle(tagLeft(A));
    expect(last()).toMatchObject({ kind: 'place', item: B2 });
  });

  it('ignores other stations', () => {
    const { s, saved } = session([B1]);
    s.start();
    s.handle(tagArrived(A, 'seat-2'));
    expect(saved).toEqual([]);
  });

  it('resumes after an interruption from the saved file, with the first item still without a tag', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'zaptable-enroll-'));
    const file = path.join(dir, 'tags.json');
    const first = session([B1, B2, B3], EMPTY_REGISTRY, (r) => {
      saveRegistry(file, r);
    });
    first.s.start();
    first.s.handle(tagArrived(A));
    first.s.handle(tagLeft(A));
    first.s.handle(tagArrived(B));
    // Ctrl-C here: the session is simply dropped.
    const loaded = loadRegistry(file);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    expect(loaded.registry.tags).toEqual({ [A]: 'barrel:1', [B]: 'barrel:2' });
    const second = session([B1, B2, B3], loaded.registry);
    second.s.start();
    expect(second.updates.slice(0, 2)).toEqual([
      { kind: 'resumed', alreadyTagged: 2, progress: { done: 2, total: 3 } },
      expect.objectContaining({ kind: 'place', item: B3 }),
    ]);
    second.s.handle(tagArrived(C));
    expect(second.saved.at(-1)?.tags).toEqual({ [A]: 'barrel:1', [B]: 'barrel:2', [C]: 'barrel:3' });
  });

  it('finishes at once when every item already has a tag', () => {
    const r = enrollTag(EMPTY_REGISTRY, A, B1);
    if (!r.ok) throw new Error(r.message);
    const { s, updates } = session([B1], r.registry);
    s.start();
    expect(updates.map((u) => u.kind)).toEqual(['resumed', 'done']);
  });

  it('redo: the forgotten item is asked for, and its old tag may be enrolled on it again', () => {
    const r = enrollTag(EMPTY_REGISTRY, A, B1);
    if (!r.ok) throw new Error(r.message);
    const { s, last, saved } = session([B1], forgetItem(r.registry, B1));
    s.start();
    expect(last()).toMatchObject({ kind: 'place', item: B1 });
    s.handle(tagArrived(B));
    expect(saved.at(-1)?.tags).toEqual({ [B]: 'barrel:1' });
  });

  it('stops with save-failed when the registry cannot be written', () => {
    const { s, updates } = session([B1], EMPTY_REGISTRY, () => {
      throw new Error('EACCES: permission denied');
    });
    s.start();
    s.handle(tagArrived(A));
    expect(updates.at(-1)).toEqual({ kind: 'save-failed', message: 'EACCES: permission denied' });
    expect(s.finished).toBe(true);
    expect(s.succeeded).toBe(false);
    expect(s.registry).toBe(EMPTY_REGISTRY);
  });

  it('reads back what it saved: the file holds the registry', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'zaptable-enroll-'));
    const file = path.join(dir, 'tags.json');
    const { s } = session([B1], EMPTY_REGISTRY, (r) => {
      saveRegistry(file, r);
    });
    s.start();
    s.handle(tagArrived('04:aa:aa:aa:aa:aa:aa'));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, tags: { [A]: 'barrel:1' } });
  });
});

describe('item selection', () => {
  it('selects all 69 items by default, or a group, or the items to redo', () => {
    const all = selectItems(undefined);
    expect(all.ok && all.items.length).toBe(69);
    expect(ALL_ITEMS).toHaveLength(69);
    const barrels = selectItems('barrels');
    expect(barrels.ok && barrels.items.length).toBe(13);
    const zaps = selectItems('zaps,barrels');
    expect(zaps.ok && zaps.items.map((i) => i.kind)).toEqual([...Array<string>(13).fill('barrel'), ...Array<string>(6).fill('zap')]);
    const cards = selectItems('cards');
    expect(cards.ok && cards.items.length).toBe(50);
    const redo = selectItems(undefined, ['7', 'r4', 'Z2']);
    expect(redo.ok && redo.items).toEqual([{ kind: 'barrel', value: 7 }, { kind: 'card', card: 'R4' }, { kind: 'zap', card: 'Z2' }]);
  });

  it('names items forgivingly but refuses anything else', () => {
    expect(parseItemName('barrel:13')).toEqual({ kind: 'barrel', value: 13 });
    expect(parseItemName('card:R4')).toEqual({ kind: 'card', card: 'R4' });
    expect(parseItemName('14')).toBeUndefined();
    expect(parseItemName('Q1')).toBeUndefined();
    expect(selectItems('barrel')).toMatchObject({ ok: false });
    expect(selectItems(undefined, ['nonsense'])).toMatchObject({ ok: false, message: expect.stringContaining('"nonsense"') as unknown });
  });
});
