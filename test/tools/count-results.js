#!/usr/bin/env node
// Counts the results of one step of the test command (test/run-all.sh), failing closed: whatever cannot be
// trusted is counted as a failure, never as nothing. Kept out of the shell so that every rule is tested
// (test/tools/count-results.test.ts).
//
//   node test/tools/count-results.js vitest REPORT.json EXIT_CODE   vitest's JSON report (--reporter=json)
//   node test/tools/count-results.js summary EXIT_CODE [--last]     a step's own "N passed, N failed" lines,
//                                                                    read from stdin (--last: only the last line)
//
// Prints one line "PASSED FAILED SKIPPED TODO" (four numbers) for the shell to add up, and each problem as
// "FAILED: ..." on stderr; every problem is one failure in FAILED. Exits 0 when there was no problem, else 1.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNTS = ['numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests'];
/** How vitest names a test it did not run, mapped to the column it is counted in. */
const NOT_RUN = { skipped: 'skipped', pending: 'skipped', disabled: 'skipped', todo: 'todo' };

const isCount = (v) => Number.isSafeInteger(v) && v >= 0;

/**
 * Counts a vitest JSON report.
 * @param {string | undefined} text the report file's content (undefined: there is none)
 * @param {{ exitCode: number, expectedFiles?: readonly string[] }} options vitest's exit code; the absolute
 *   paths of the test files vitest should have run (each one missing from the report is a failure)
 * @returns {{ passed: number, failed: number, skipped: number, todo: number, problems: string[] }}
 */
export function countVitest(text, { exitCode, expectedFiles = [] }) {
  const result = { passed: 0, failed: 0, skipped: 0, todo: 0, problems: [] };
  const problem = (what) => {
    result.problems.push(what);
    result.failed++;
  };
  const done = () => {
    if (exitCode !== 0 && result.failed === 0) problem(`vitest exited ${exitCode} but its report counts no failure`);
    return result;
  };
  if (text === undefined) {
    problem('vitest wrote no report');
    return done();
  }
  let report;
  try {
    report = JSON.parse(text);
  } catch (e) {
    problem(`the vitest report is not JSON (cut short?): ${e instanceof Error ? e.message : String(e)}`);
    return done();
  }
  if (report === null || typeof report !== 'object' || Array.isArray(report)) {
    problem('the vitest report is not an object');
    return done();
  }
  const bad = COUNTS.filter((k) => !isCount(report[k]));
  for (const k of bad) problem(`the vitest report's ${k} is not a count: ${JSON.stringify(report[k])}`);
  if (!Array.isArray(report.testResults)) problem('the vitest report has no testResults list');
  if (bad.length > 0 || !Array.isArray(report.testResults)) return done();

  // The per-test statuses must add up to the totals: a report that lost files or tests on the way is partial.
  const tally = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let malformed = 0;
  const files = new Set();
  for (const file of report.testResults) {
    if (file === null || typeof file !== 'object' || typeof file.name !== 'string' || !Array.isArray(file.assertionResults)) {
      malformed++;
      continue;
    }
    files.add(path.resolve(file.name));
    let failedHere = 0;
    for (const test of file.assertionResults) {
      const status = test?.status;
      if (status === 'passed' || status === 'failed') tally[status]++;
      else if (typeof status === 'string' && status in NOT_RUN) tally[NOT_RUN[status]]++;
      else {
        malformed++;
        continue;
      }
      if (status === 'failed') failedHere++;
    }
    // A file can fail with no failed test: it did not load, or a hook (beforeAll, afterAll) threw.
    if (file.status === 'failed' && failedHere === 0) {
      const why = typeof file.message === 'string' && file.message !== '' ? `: ${file.message.split('\n')[0]}` : '';
      problem(`${path.relative(process.cwd(), file.name)} failed outside its tests${why}`);
    }
  }
  if (malformed > 0) problem(`the vitest report has ${malformed} entries without a name or a status`);
  const totals = {
    passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests, todo: report.numTodoTests,
  };
  for (const k of Object.keys(tally)) {
    if (tally[k] !== totals[k]) problem(`the vitest report is partial: it lists ${tally[k]} ${k} tests, its total says ${totals[k]}`);
  }
  const sum = totals.passed + totals.failed + totals.skipped + totals.todo;
  if (sum !== report.numTotalTests) problem(`the vitest report's counts add up to ${sum}, its numTotalTests is ${report.numTotalTests}`);
  if (report.numTotalTests === 0) problem('vitest ran no tests');
  if (report.success === false && totals.failed === 0 && result.failed === 0) problem('the vitest report says it did not succeed');
  for (const f of expectedFiles) {
    if (!files.has(path.resolve(f))) problem(`${path.relative(process.cwd(), f)} is not in the vitest report`);
  }
  result.passed += totals.passed;
  result.failed += totals.failed;
  result.skipped += totals.skipped;
  result.todo += totals.todo;
  return done();
}

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

/**
 * Counts a step's own summary lines ("N passed, N failed", optionally ", N skipped"), e.g. the firmware host
 * test binaries' (all such lines are added up) or check-docs' (`last`: only the last line counts).
 * @param {string} output the step's output
 * @param {{ exitCode: number, last?: boolean }} options
 */
export function countSummaries(output, { exitCode, last = false }) {
  const result = { passed: 0, failed: 0, skipped: 0, todo: 0, problems: [] };
  const lines = output.split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const candidates = last ? lines.slice(-1) : lines;
  const found = candidates.map((l) => SUMMARY.exec(l)).filter((m) => m !== null);
  for (const m of found) {
    const [p, f, s] = [m[1], m[2], m[3] ?? '0'].map(Number);
    if (![p, f, s].every(isCount)) {
      result.problems.push(`a summary count is too large to be a count: ${m[0]}`);
      result.failed++;
      continue;
    }
    result.passed += p;
    result.failed += f;
    result.skipped += s;
  }
  if (found.length === 0) {
    result.problems.push(last ? 'its last line is not "N passed, N failed"' : 'it printed no "N passed, N failed" line');
    result.failed++;
  }
  if (exitCode !== 0 && result.failed === 0) {
    result.problems.push(`it exited ${exitCode} but counts no failure`);
    result.failed++;
  }
  return result;
}

/** The test files vitest's include pattern (vitest.config.ts: test/**\/*.test.ts) matches under `root`. */
export function testFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(full);
      else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(full);
    }
  };
  walk(path.join(root, 'test'));
  return out.sort();
}

function main(argv) {
  const [mode, ...rest] = argv;
  const code = (s) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  let result;
  if (mode === 'vitest' && rest.length === 2 && code(rest[1]) !== undefined) {
    const [file, exit] = rest;
    const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    result = countVitest(text, { exitCode: Number(exit), expectedFiles: testFiles(process.cwd()) });
  } else if (mode === 'summary' && code(rest[0]) !== undefined && (rest.length === 1 || (rest.length === 2 && rest[1] === '--last'))) {
    result = countSummaries(readFileSync(0, 'utf8'), { exitCode: Number(rest[0]), last: rest[1] === '--last' });
  } else {
    process.stderr.write('usage: count-results.js vitest REPORT.json EXIT_CODE | summary EXIT_CODE [--last] < OUTPUT\n');
    return 2;
  }
  for (const p of result.problems) process.stderr.write(`FAILED: ${p}\n`);
  process.stdout.write(`${result.passed} ${result.failed} ${result.skipped} ${result.todo}\n`);
  return result.problems.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
