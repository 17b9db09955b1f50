/**
 * The dashboard's browser files built once by tools/build.mjs into dist/web/ and read back at start-up
 * (dashboard/server/assets-prebuilt.ts): what is read is byte for byte what was bundled, and anything short of a
 * current, complete set — no manifest, a broken one, a listed file gone, a source edited since — is refused with
 * its code, so the server bundles afresh instead of serving something stale or partial.
 */
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAssets, type Assets } from '../../dashboard/server/assets.ts';
import { buildAssets } from '../../dashboard/server/assets-bundle.ts';
import { newestWebSource, readPrebuiltAssets, writePrebuiltAssets } from '../../dashboard/server/assets-prebuilt.ts';

let bundled: Assets;
let dir: string;
/** A stand-in for the sources: one file whose modification time the tests move. */
let source: string;
const EDITED_AT = new Date('2030-01-01T00:00:00Z');

beforeAll(async () => {
  bundled = await buildAssets();
  dir = mkdtempSync(path.join(tmpdir(), 'zaptable-prebuilt-'));
  source = path.join(dir, 'source.ts');
  writeFileSync(source, '// a source\n');
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the bundle to a fresh folder, stamped with the stand-in source's time. */
function written(): string {
  const web = mkdtempSync(path.join(dir, 'web-'));
  writePrebuiltAssets(web, bundled, newestWebSource([source]));
  return web;
}

describe('prebuilt dashboard files', () => {
  it('read back exactly as bundled: the page, every file in every encoding, and what each page loads', () => {
    const read = readPrebuiltAssets(written(), [source]);
    if (!read.ok) throw new Error(read.message);
    expect(read.assets.source).toBe('prebuilt');
    expect(read.assets.html).toBe(bundled.html);
    expect(read.assets.page).toEqual(bundled.page);
    expect([...read.assets.files.keys()].sort()).toEqual([...bundled.files.keys()].sort());
    for (const [name, asset] of bundled.files) expect(read.assets.files.get(name)).toEqual(asset);
    expect(Object.fromEntries(read.assets.pages)).toEqual(Object.fromEntries(bundled.pages));
    expect(bundled.files.size).toBeGreaterThan(5);
  });

  it('are refused once a source is newer than they are (PREBUILT_STALE)', () => {
    const web = written();
    utimesSync(source, EDITED_AT, EDITED_AT);
    try {
      expect(readPrebuiltAssets(web, [source])).toMatchObject({ ok: false, code: 'PREBUILT_STALE' });
    } finally {
      utimesSync(source, new Date(0), new Date(0));
    }
  });

  it('are refused when the manifest is missing, broken, or lists a file that is gone', () => {
    expect(readPrebuiltAssets(path.join(dir, 'nowhere'), [source])).toMatchObject({ ok: false, code: 'PREBUILT_MISSING' });
    const broken = written();
    writeFileSync(path.join(broken, 'manifest.json'), '{"format": 1, "sourcesMt');
    expect(readPrebuiltAssets(broken, [source])).toMatchObject({ ok: false, code: 'PREBUILT_CORRUPT' });
    const escaping = written();
    writeFileSync(path.join(escaping, 'manifest.json'), JSON.stringify({
      format: 1, sourcesMtimeMs: Date.now(), html: '', files: [{ name: '../../etc/passwd', contentType: 'text/plain' }], pages: {},
    }));
    expect(readPrebuiltAssets(escaping, [source])).toMatchObject({ ok: false, code: 'PREBUILT_CORRUPT' });
    const partial = written();
    const [first] = bundled.files.keys();
    unlinkSync(path.join(partial, 'assets', `${first ?? ''}.br`));
    expect(readPrebuiltAssets(partial, [source])).toMatchObject({ ok: false, code: 'PREBUILT_CORRUPT' });
  });

  it('loadAssets bundles afresh, and says why, when they cannot be used', async () => {
    const why: string[] = [];
    const assets = await loadAssets({ dir: path.join(dir, 'nowhere'), onBundle: (w) => why.push(w.code) });
    expect(why).toEqual(['PREBUILT_MISSING']);
    expect(assets.source).toBe('bundled');
    expect([...assets.files.keys()].sort()).toEqual([...bundled.files.keys()].sort());
  }, 60_000);
});
