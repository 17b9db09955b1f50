/**
 * The test command's counting (test/tools/count-results.js) fails closed: every report or output it cannot
 * trust is counted as a failure, with a reason, never as "0 failed".
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countSummaries, countVitest, testFiles } from './count-results.js';

const script = path.join(import.meta.dirname, 'count-results.js');

interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults: { status: string }[];
}

/** A well-formed vitest report whose totals are computed from its files. */
function report(files: FileResult[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const all = files.flatMap((f) => f.assertionResults.map((a) => a.status));
  const n = (...statuses: string[]) => all.filter((s) => statuses.includes(s)).length;
  return {
    numTotalTests: all.length, numPassedTests: n('passed'), numFailedTests: n('failed'),
    numPendingTests: n('skipped', 'pending', 'disabled'), numTodoTests: n('todo'),
    success: n('failed') === 0 && files.every((f) => f.status !== 'failed'), testResults: files, ...extra,
  };
}

const tests = (...statuses: string[]) => statuses.map((status) => ({ status }));
const A = '/repo/test/a.test.ts';
const B = '/repo/test/b.test.ts';
const good = report([
  { name: A, status: 'passed', assertionResults: tests('passed', 'passed', 'skipped', 'todo') },
  { name: B, status: 'passed', assertionResults: tests('passed') },
]);
const json = (value: unknown) => JSON.stringify(value);

describe('countVitest', () => {
  it('counts passed, failed, skipped and todo tests of a good report, with no problem', () => {
    expect(countVitest(json(good), { exitCode: 0, expectedFiles: [A, B] }))
      .toEqual({ passed: 3, failed: 0, skipped: 1, todo: 1, problems: [] });
  });

  it('counts failed tests once each', () => {
    const r = report([{ name: A, status: 'failed', assertionResults: tests('passed', 'failed', 'failed') }]);
    expect(countVitest(json(r), { exitCode: 1 })).toEqual({ passed: 1, failed: 2, skipped: 0, todo: 0, problems: [] });
  });

  it('fails when there is no report (vitest crashed, or a stale one was deleted)', () => {
    const r = countVitest(undefined, { exitCode: 1 });
    expect(r.failed).toBe(1);
    expect(r.problems).toEqual(['vitest wrote no report']);
  });

  it('fails on an unparsable report: cut short, empty, not JSON', () => {
    for (const text of [json(good).slice(0, 200), '', 'Error: worker exited']) {
      const r = countVitest(text, { exitCode: 1 });
      expect(r.failed).toBe(1);
      expect(r.problems[0]).toMatch(/^the vitest report is not JSON/);
    }
    // The same with exit code 0: the report alone decides.
    expect(countVitest('{"numTotalTests": 3,', { exitCode: 0 }).failed).toBe(1);
  });

  it('fails on a report that is JSON but not a report', () => {
    for (const text of ['null', '[]', '42']) expect(countVitest(text, { exitCode: 0 }).problems).toEqual(['the vitest report is not an object']);
  });

  it('fails on every missing field or count that is not a number', () => {
    const { numFailedTests: _, ...withoutFailed } = good;
    let r = countVitest(json(withoutFailed), { exitCode: 0 });
    expect(r.problems).toEqual(['the vitest report\'s numFailedTests is not a count: undefined']);
    expect([r.passed, r.failed]).toEqual([0, 1]);
    for (const value of ['3', -1, 1.5, null]) {
      r = countVitest(json({ ...good, numPassedTests: value }), { exitCode: 0 });
      expect(r.problems).toEqual([`the vitest report's numPassedTests is not a count: ${JSON.stringify(value)}`]);
      expect(r.failed).toBe(1);
    }
    // NaN and Infinity do not survive JSON: they arrive as null.
    expect(countVitest(json({ ...good, numTodoTests: Number.NaN }), { exitCode: 0 }).problems)
      .toEqual(['the vitest report\'s numTodoTests is not a count: null']);
    r = countVitest(json({ ...good, testResults: undefined }), { exitCode: 0 });
    expect(r.problems).toEqual(['the vitest report has no testResults list']);
  });

  it('fails on a partial report: totals that the listed tests do not add up to', () => {
    const partial = { ...good, testResults: [(good.testResults as FileResult[])[0]] };
    const r = countVitest(json(partial), { exitCode: 0 });
    expect(r.problems).toEqual(['the vitest report is partial: it lists 2 passed tests, its total says 3']);
    expect(r.failed).toBe(1);
    const sum = countVitest(json({ ...good, numTotalTests: 9 }), { exitCode: 0 });
    expect(sum.problems).toEqual(['the vitest report\'s counts add up to 5, its numTotalTests is 9']);
  });

  it('fails on entries without a name or a status', () => {
    const r = report([{ name: A, status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'exploded' }] }]);
    expect(countVitest(json(r), { exitCode: 0 }).problems).toContain('the vitest report has 1 entries without a name or a status');
  });

  it('counts a failed file with no failed test (did not load, a hook threw) as one failure, with its message', () => {
    const r = report([
      { name: A, status: 'failed', message: 'Cannot find module \'./nope.ts\'\n  at …', assertionResults: [] },
      { name: B, status: 'failed', message: '', assertionResults: tests('passed', 'passed') },
    ]);
    const c = countVitest(json(r), { exitCode: 1 });
    expect([c.passed, c.failed]).toEqual([2, 2]);
    expect(c.problems).toEqual([
      `${path.relative(process.cwd(), A)} failed outside its tests: Cannot find module './nope.ts'`,
      `${path.relative(process.cwd(), B)} failed outside its tests`,
    ]);
  });

  it('fails when vitest exited non-zero and the report counts no failure (e.g. an unhandled error)', () => {
    const r = countVitest(json(good), { exitCode: 1 });
    expect(r.problems).toEqual(['vitest exited 1 but its report counts no failure']);
    expect([r.passed, r.failed]).toEqual([3, 1]);
  });

  it('fails when the report says it did not succeed but counts no failure', () => {
    expect(countVitest(json({ ...good, success: false }), { exitCode: 0 }).problems).toEqual(['the vitest report says it did not succeed']);
  });

  it('fails when no test ran at all', () => {
    expect(countVitest(json(report([])), { exitCode: 0 }).problems).toEqual(['vitest ran no tests']);
  });

  it('fails for each test file on disk that the report does not list', () => {
    const c = countVitest(json(good), { exitCode: 0, expectedFiles: [A, B, '/repo/test/c.test.ts'] });
    expect(c.problems).toEqual([`${path.relative(process.cwd(), '/repo/test/c.test.ts')} is not in the vitest report`]);
    expect(c.failed).toBe(1);
  });
});

describe('countSummaries', () => {
  it('adds up every "N passed, N failed" line, with an optional skipped count', () => {
    const out = 'building\n54 passed, 0 failed\nnoise 1 passed, 2 failed\n5 passed, 1 failed, 2 skipped\n';
    expect(countSummaries(out, { exitCode: 1 })).toEqual({ passed: 59, failed: 1, skipped: 2, todo: 0, problems: [] });
  });

  it('fails when the step printed no summary line', () => {
    const r = countSummaries('== host tests\nSegmentation fault\n', { exitCode: 0 });
    expect(r.problems).toEqual(['it printed no "N passed, N failed" line']);
    expect(r.failed).toBe(1);
    expect(countSummaries('', { exitCode: 0 }).failed).toBe(1);
  });

  it('with --last, only the last line counts', () => {
    expect(countSummaries('ok a\n39 passed, 0 failed\n\n', { exitCode: 0, last: true }).passed).toBe(39);
    const r = countSummaries('39 passed, 0 failed\nTypeError: boom\n', { exitCode: 1, last: true });
    expect(r.problems).toEqual(['its last line is not "N passed, N failed"']);
    expect(r.failed).toBe(1);
  });

  it('fails when the step exited non-zero with no failure counted', () => {
    const r = countSummaries('54 passed, 0 failed\nFAIL: seat-328p uses 31000 bytes of flash\n', { exitCode: 1 });
    expect(r.problems).toEqual(['it exited 1 but counts no failure']);
    expect([r.passed, r.failed]).toEqual([54, 1]);
  });

  it('fails on a count too large to be one', () => {
    expect(countSummaries('99999999999999999999 passed, 0 failed', { exitCode: 0 }).problems)
      .toEqual(['a summary count is too large to be a count: 99999999999999999999 passed, 0 failed']);
  });
});

describe('the command line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-count-'));
  mkdirSync(path.join(dir, 'test', 'sub'), { recursive: true });
  for (const f of ['test/a.test.ts', 'test/sub/b.test.ts', 'test/helpers.ts']) writeFileSync(path.join(dir, f), '');
  const run = (args: string[], input = '') => spawnSync(process.execPath, [script, ...args], { cwd: dir, input, encoding: 'utf8' });

  it('finds the test files as vitest.config.ts includes them', () => {
    expect(testFiles(dir)).toEqual([path.join(dir, 'test/a.test.ts'), path.join(dir, 'test/sub/b.test.ts')]);
  });

  it('prints four numbers and exits 0 for a trusted report of the test files on disk', () => {
    const r0 = report([
      { name: path.join(dir, 'test/a.test.ts'), status: 'passed', assertionResults: tests('passed', 'todo') },
      { name: path.join(dir, 'test/sub/b.test.ts'), status: 'passed', assertionResults: tests('skipped') },
    ]);
    writeFileSync(path.join(dir, 'vitest.json'), json(r0));
    const r = run(['vitest', 'vitest.json', '0']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '1 0 1 1\n', '']);
  });

  it('prints the problems on stderr, counts them, and exits 1', () => {
    writeFileSync(path.join(dir, 'broken.json'), '{"numTotalTests":');
    const r = run(['vitest', 'broken.json', '1']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('0 1 0 0\n');
    expect(r.stderr).toMatch(/^FAILED: the vitest report is not JSON/);
    expect(run(['vitest', 'missing.json', '1']).stdout).toBe('0 1 0 0\n');
  });

  it('reads a step\'s output from stdin in summary mode', () => {
    expect(run(['summary', '0'], '3 passed, 0 failed\n').stdout).toBe('3 0 0 0\n');
    const r = run(['summary', '0', '--last'], 'nothing\n');
    expect([r.status, r.stdout]).toEqual([1, '0 1 0 0\n']);
  });

  it('refuses a malformed command line without printing numbers', () => {
    for (const args of [[], ['vitest', 'x.json'], ['vitest', 'x.json', 'one'], ['summary', '0', '--first']]) {
      const r = run(args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});
