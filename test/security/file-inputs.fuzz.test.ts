/**
 * Item 8 of issue 18: no file the controller reads can end it with a stack trace. A self-referencing YAML alias
 * and an alias bomb are CONFIG_SYNTAX errors with the file and line (`zaptable config check` and `zaptable
 * start`), and a property test feeds every file input — the configuration, the tag registry, the calibration,
 * action logs (`zaptable replay FILE`), scenarios (`zaptable scenario FILE`) — random bytes, random JSON,
 * random YAML with anchors and aliases, deep nesting, and random edits of a valid file: each load either
 * succeeds or answers with coded errors, and never throws.
 *
 * Run counts are kept small (a 2-core CI): 60 inputs per file kind and generator family, seeded per run by
 * fast-check (a failure prints its seed and the shrunk input, to replay with `{ seed, path }`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playGame } from '../../controller/bots/play-game.ts';
import { main } from '../../controller/cli/main.ts';
import type { Output } from '../../controller/cli/output.ts';
import { EXAMPLES_DIR } from '../../controller/cli/commands/config-check.ts';
import { loadConfig } from '../../controller/config/load-config.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { loadCalibration, saveCalibration } from '../../controller/runtime/calibration/calibration-file.ts';
import { loadRegistry, saveRegistry } from '../../controller/runtime/registry/registry-file.ts';
import { runScenarioFile } from '../../controller/scenarios/run-scenario.ts';

const RUNS = 60;
const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-fuzz-'));
let count = 0;

function write(text: string | Uint8Array, ext: string): string {
  const file = path.join(dir, `input-${++count}.${ext}`);
  writeFileSync(file, text);
  return file;
}

function capture(): { lines: string[]; io: Output } {
  const lines: string[] = [];
  const push = (line: string): void => {
    lines.push(line);
  };
  return { lines, io: { out: push, err: push, progress: () => undefined } };
}

/** What every loader must answer: success, or errors each carrying a stable code. */
type Outcome = { readonly ok: true } | { readonly ok: false; readonly codes: readonly string[] };
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

function expectCoded(outcome: Outcome): void {
  if (outcome.ok) return;
  expect(outcome.codes.length).toBeGreaterThan(0);
  for (const code of outcome.codes) expect(code).toMatch(CODE);
}

// ---- valid files to start the edits from --------------------------------------------------------------------

const CONFIG = readFileSync(path.join(EXAMPLES_DIR, 'simulated.yaml'), 'utf8');
const REGISTRY_FILE = path.join(dir, 'valid-tags.json');
saveRegistry(REGISTRY_FILE, { version: 1, tags: { '04A1B2C3': 'barrel:7', '04A1B2C4': 'card:R4' } });
const REGISTRY = readFileSync(REGISTRY_FILE, 'utf8');
const CALIBRATION_FILE = path.join(dir, 'valid-calibration.json');
saveCalibration(CALIBRATION_FILE, {
  version: 1,
  stations: { pad1: { tareAt: '2026-01-01T10:00:00Z', knownGrams: 500, calibratedAt: '2026-01-01T10:01:00Z', perKg: 21000 } },
  barrels: {
    weights: { emptyGrams: 20, stoneGrams: 5, rmsResidualGrams: 0.4, samples: 2 }, station: 'pad1', learnedAt: '2026-01-01T10:02:00Z',
    samples: [{ barrel: 1, grams: 25, uid: '04A1B2C3' }, { barrel: 7, grams: 55, uid: '04A1B2C4' }],
  },
  cardGrams: 1.8,
});
const CALIBRATION = readFileSync(CALIBRATION_FILE, 'utf8');
const played = playGame(getEngine('zapp-zerapp'), { players: ['red', 'green'] }, 7);
const ACTION_LOG = JSON.stringify({ game: 'zapp-zerapp', config: { players: ['red', 'green'] }, seed: 7, actions: played.actions.slice(0, 40) });
const SCENARIO = readFileSync(path.join('test', 'scenarios', 'zip-zap', 'ZIP-45-first-down.json'), 'utf8');

// ---- the inputs --------------------------------------------------------------------------------------------

/** Random edits of a valid text: cut a span, insert random characters there (the way a bad save or a typo does). */
function edited(valid: string): fc.Arbitrary<string> {
  const edit = fc.record({ at: fc.nat({ max: valid.length }), cut: fc.nat({ max: 40 }), insert: fc.string({ maxLength: 12, unit: 'grapheme' }) });
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => edits.reduce(
    (text, e) => text.slice(0, Math.min(e.at, text.length)) + e.insert + text.slice(Math.min(e.at, text.length) + e.cut), valid));
}

/** A valid JSON document with one value somewhere replaced by any JSON value (right shape, wrong content). */
function replaced(valid: string): fc.Arbitrary<string> {
  const root = JSON.parse(valid) as unknown;
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, at: (string | number)[]): void => {
    paths.push(at);
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, [...at, i]);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  walk(root, []);
  return fc.tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 })).map(([at, value]) => {
    const copy = JSON.parse(valid) as Record<string | number, unknown>;
    if (at.length === 0) return JSON.stringify(value);
    let node = copy;
    for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[at.at(-1) as string | number] = value;
    return JSON.stringify(copy);
  });
}

/** Nesting far beyond any real file: `[[[…]]]` or `{"a":{"a":…}}`, JSON or YAML flow style. */
const deep = fc.tuple(fc.integer({ min: 1000, max: 20_000 }), fc.boolean()).map(([n, list]) =>
  list ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);

/** YAML anchors and aliases in random places, including inside their own node and nested expansions. */
const aliases = fc.oneof(
  fc.constantFrom('a: &a [*a]\n', 'a: &a {k: *a}\n', 'tables:\n  - &t\n    id: t1\n    seats: [*t]\n', '&a [&b [*a, *b]]\n'),
  fc.integer({ min: 2, max: 12 }).map((levels) => {
    let text = 'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i < levels; i++) text += `l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]\n`;
    return text;
  }),
);

const anyBytes = fc.uint8Array({ maxLength: 400 });
const anyText = fc.string({ maxLength: 400, unit: 'binary' });
const anyJson = fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v));

function inputs(valid: string, json: boolean): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(anyBytes, anyText, anyJson, deep, aliases, edited(valid), ...(json ? [replaced(valid)] : []));
}

async function holds(
  arbitrary: fc.Arbitrary<string | Uint8Array>, ext: string, load: (file: string) => Outcome | Promise<Outcome>,
): Promise<void> {
  await fc.assert(fc.asyncProperty(arbitrary, async (text) => {
    expectCoded(await load(write(text, ext)));
  }), { numRuns: RUNS * 5 });
}

// ---- the loaders, as the commands use them -------------------------------------------------------------------

function configOutcome(file: string): Outcome {
  const loaded = loadConfig({ file, env: {}, cwd: dir, generateSecrets: false });
  return loaded.ok ? { ok: true } : { ok: false, codes: loaded.errors.map((e) => e.code) };
}

async function replayOutcome(file: string): Promise<Outcome> {
  const out = capture();
  const code = await main(['replay', file], out.io);
  if (code === 0) return { ok: true };
  // Each complaint is `zaptable replay: [where: ]CODE: what`.
  return { ok: false, codes: out.lines.map((l) => /(?:^|: )([A-Z][A-Z0-9_]+):/.exec(l)?.[1] ?? l) };
}

async function scenarioOutcome(file: string): Promise<Outcome> {
  const report = await runScenarioFile(file);
  if (report.errors.length === 0) return { ok: true };
  return { ok: false, codes: report.errors.map((e) => /^([A-Z][A-Z0-9_]+):/.exec(e)?.[1] ?? e) };
}

describe('a YAML alias cannot crash the configuration', () => {
  const bomb = (() => {
    let text = 'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    for (let i = 1; i < names.length; i++) text += `${names[i] ?? ''}: &${names[i] ?? ''} [${Array(9).fill(`*${names[i - 1] ?? ''}`).join(', ')}]\n`;
    return text;
  })();

  it.each([
    ['a self-referencing alias', 'mqtt:\n  baseTopic: zaptable\ntables: &a [*a]\n', 3],
    ['an alias bomb (nine levels of nine aliases)', bomb, 2],
  ])('%s is CONFIG_SYNTAX with the file and line, in config check and in start', async (_what, text, line) => {
    const file = write(text, 'yaml');
    // The CLI names the file as given or relative to the working folder, whichever is shorter (a clone under
    // /tmp sees the temporary file as ../zaptable-fuzz-…).
    const named = `(?:${escape(file)}|${escape(path.relative(process.cwd(), file))})`;
    const check = capture();
    expect(await main(['config', 'check', file], check.io)).toBe(1);
    expect(check.lines.join('\n')).toMatch(new RegExp(`${named}:${line}:\\d+ .*\\[CONFIG_SYNTAX\\]`));
    const start = capture();
    expect(await main(['start', '--config', file], start.io)).not.toBe(0);
    // start names the file once, then each error with its line.
    expect(start.lines.join('\n')).toMatch(new RegExp(`${named} has 1 error\\(s\\):\\s+line ${line}:\\d+ .*\\[CONFIG_SYNTAX\\]`));
    expect(start.lines.join('\n')).not.toMatch(/RangeError|ReferenceError| {4}at /);
  });

  it('nesting deeper than any configuration needs is CONFIG_SYNTAX at the place, before the parser recurses', () => {
    for (const text of [`tables: ${'['.repeat(100_000)}`, `a: 1\n${' '.repeat(300)}b: 2\n`]) {
      const loaded = loadConfig({ file: write(text, 'yaml'), env: {}, cwd: dir, generateSecrets: false });
      expect(loaded.ok ? [] : loaded.errors.map((e) => [e.code, e.line])).toEqual([['CONFIG_SYNTAX', text.startsWith('a') ? 2 : 1]]);
    }
  });

  it('still reads an ordinary alias (rules written once for two tables)', () => {
    const file = write(`hardware: { kind: simulated }
tables:
  - { id: t1, mode: zapp-zerapp, rules: &rules { variant: PRO }, seats: [{ id: red }, { id: green }] }
  - { id: t2, mode: zapp-zerapp, rules: *rules, seats: [{ id: red }, { id: green }] }
`, 'yaml');
    const loaded = loadConfig({ file, env: {}, cwd: dir, generateSecrets: false });
    expect(loaded.ok ? loaded.config.tables.map((t) => t.rules) : loaded.errors).toEqual([{ variant: 'PRO' }, { variant: 'PRO' }]);
  });
});

describe('every file input answers random content with a coded error, never a throw', () => {
  it('the configuration (YAML)', async () => {
    await holds(inputs(CONFIG, false), 'yaml', configOutcome);
  });

  it('the tag registry', async () => {
    await holds(inputs(REGISTRY, true), 'json', (file) => {
      const loaded = loadRegistry(file);
      return loaded.ok ? { ok: true } : { ok: false, codes: [loaded.code] };
    });
  });

  it('the calibration', async () => {
    await holds(inputs(CALIBRATION, true), 'json', (file) => {
      const loaded = loadCalibration(file);
      return loaded.ok ? { ok: true } : { ok: false, codes: [loaded.code] };
    });
  });

  it('action logs (zaptable replay FILE)', async () => {
    await holds(inputs(ACTION_LOG, true), 'json', replayOutcome);
  });

  it('scenarios (zaptable scenario FILE)', async () => {
    await holds(inputs(SCENARIO, true), 'json', scenarioOutcome);
  });
});
