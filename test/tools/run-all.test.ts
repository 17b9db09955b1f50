/**
 * The test command itself (test/run-all.sh) fails closed. It runs here in a scratch copy of the repository
 * whose steps are stubs (npm, npx vitest, firmware/ci.sh, check-docs, mosquitto and chromium on PATH), each
 * told by an environment variable what to print and how to exit; the real counting
 * (test/tools/count-results.js) runs unchanged.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Stubs: each reads its behaviour from FAKE_* variables. */
const STUBS: Record<string, string> = {
  // npm ci / npm run --silent typecheck|lint: logs the call; FAKE_NPM_FAIL names a script (or "ci") that fails.
  'bin/npm': `#!/usr/bin/env bash
echo "npm $*" >> "$FAKE_LOG"
what=$1; [ "$1" = run ] && what=$3
[ "$what" = "\${FAKE_NPM_FAIL:-}" ] && exit 1
exit 0`,
  // npx vitest run ... --outputFile.json=FILE: copies FAKE_VITEST_REPORT (if set) to FILE, exits FAKE_VITEST_RC.
  'bin/npx': `#!/usr/bin/env bash
echo "npx $*" >> "$FAKE_LOG"
for a in "$@"; do case $a in --outputFile.json=*) out=\${a#--outputFile.json=};; esac; done
[ -n "\${FAKE_VITEST_REPORT:-}" ] && cp "$FAKE_VITEST_REPORT" "$out"
exit "\${FAKE_VITEST_RC:-0}"`,
  'bin/mosquitto': '#!/bin/sh\nexit 0',
  'bin/chromium': '#!/bin/sh\nexit 0',
  'firmware/ci.sh': `printf '%b' "\${FAKE_FW_OUT-54 passed, 0 failed\\n5 passed, 0 failed\\n}"
exit "\${FAKE_FW_RC:-0}"`,
  'hardware/check-docs.mjs': `process.stdout.write(process.env.FAKE_DOCS_OUT ?? 'ok a\\n39 passed, 0 failed\\n');
process.exitCode = Number(process.env.FAKE_DOCS_RC ?? 0);`,
  'tools/build.mjs': 'console.log(\'built\');',
  'test/a.test.ts': '',
};

interface Outcome { status: number | null; out: string; closing: string; log: string }

/** Runs run-all.sh in a fresh scratch repository; `setup` may change it first and return more variables. */
function runAll(env: Record<string, string> = {}, setup?: (dir: string) => Record<string, string> | undefined): Outcome {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-run-all-'));
  try {
    for (const f of ['test/run-all.sh', 'test/tools/count-results.js']) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      copyFileSync(path.join(root, f), path.join(dir, f));
    }
    for (const [f, text] of Object.entries(STUBS)) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), `${text}\n`);
      chmodSync(path.join(dir, f), 0o755);
    }
    const more = setup?.(dir) ?? {};
    const log = path.join(dir, 'calls.log');
    writeFileSync(log, '');
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'ZAPTABLE_SKIP_INSTALL' && !k.startsWith('FAKE_')));
    const r = spawnSync('bash', [path.join(dir, 'test/run-all.sh')], {
      env: { ...base, PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`, FAKE_LOG: log, ...env, ...more },
      encoding: 'utf8',
    });
    const out = r.stdout + r.stderr;
    return { status: r.status, out, closing: r.stdout.trimEnd().split('\n').at(-1) ?? '', log: readFileSync(log, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A trusted vitest report of the scratch repository's one test file, written into the scratch folder. */
function reportFile(dir: string, statuses: string[], fileStatus = 'passed'): string {
  const n = (s: string) => statuses.filter((x) => x === s).length;
  const file = path.join(dir, 'report.json');
  writeFileSync(file, JSON.stringify({
    numTotalTests: statuses.length, numPassedTests: n('passed'), numFailedTests: n('failed'), numPendingTests: n('skipped'),
    numTodoTests: n('todo'), success: n('failed') === 0, testResults: [
      { name: path.join(dir, 'test/a.test.ts'), status: fileStatus, message: '', assertionResults: statuses.map((status) => ({ status })) },
    ],
  }));
  return file;
}

/** Runs run-all.sh with FAKE_VITEST_REPORT: the report `make` writes into the scratch folder. */
function runWithReport(make: (dir: string) => string, env: Record<string, string> = {}): Outcome {
  return runAll(env, (dir) => ({ FAKE_VITEST_REPORT: make(dir) }));
}

describe('test/run-all.sh', () => {
  it('adds up every step and closes with "N passed, N failed, N skipped", exit 0', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed', 'passed', 'skipped', 'todo']));
    expect(r.out).toContain('firmware host tests: 59 passed, 0 failed, 0 skipped');
    expect(r.out).toContain('vitest: 2 passed, 0 failed, 2 skipped (1 todo)');
    expect(r.out).toContain('hardware docs: 39 passed, 0 failed, 0 skipped');
    // 59 host tests + ci.sh's builds + typecheck + lint + 2 vitest + 39 docs.
    expect(r.closing).toBe('103 passed, 0 failed, 2 skipped');
    expect(r.status).toBe(0);
    expect(r.log).toContain('npm ci');
  });

  it('counts failed tests and exits 1', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed', 'failed'], 'failed'), { FAKE_VITEST_RC: '1' });
    expect(r.out).toContain('vitest: 1 passed, 1 failed, 0 skipped');
    expect(r.closing).toBe('102 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
  });

  it('is red when vitest wrote an unparsable report and exited 1 (it used to say "0 failed", exit 0)', () => {
    const r = runWithReport((dir) => {
      writeFileSync(path.join(dir, 'cut.json'), '{"numTotalTests": 800, "numPassedTests": 79');
      return path.join(dir, 'cut.json');
    }, { FAKE_VITEST_RC: '1' });
    expect(r.out).toContain('FAILED: the vitest report is not JSON');
    expect(r.closing).toBe('101 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
  });

  it('is red when vitest exited non-zero although its report counts no failure', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { FAKE_VITEST_RC: '1' });
    expect(r.out).toContain('FAILED: vitest exited 1 but its report counts no failure');
    expect(r.status).toBe(1);
  });

  it('deletes stale reports first: an old passing vitest.json is not read when vitest writes none', () => {
    const r = runAll({ FAKE_VITEST_RC: '1' }, (dir) => {
      mkdirSync(path.join(dir, 'test-results'));
      copyFileSync(reportFile(dir, ['passed', 'passed']), path.join(dir, 'test-results', 'vitest.json'));
      return undefined;
    });
    expect(r.out).toContain('FAILED: vitest wrote no report');
    expect(r.out).not.toContain('vitest: 2 passed');
    expect(r.status).toBe(1);
  });

  it('is red when firmware/ci.sh is missing', () => {
    const r = runWithReport((dir) => {
      rmSync(path.join(dir, 'firmware/ci.sh'));
      return reportFile(dir, ['passed']);
    });
    expect(r.out).toContain('FAILED: firmware/ci.sh is missing');
    expect(r.closing).toBe('42 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
  });

  it('is red when the firmware step printed no summary', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { FAKE_FW_OUT: '== host tests\\n' });
    expect(r.out).toContain('FAILED: it printed no "N passed, N failed" line');
    expect(r.status).toBe(1);
  });

  it('is red when the firmware step exited non-zero with none failed', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { FAKE_FW_RC: '1' });
    expect(r.out).toContain('FAILED: it exited 1 but counts no failure');
    expect(r.closing).toBe('101 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
  });

  it('is red when check-docs does not end with its summary', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { FAKE_DOCS_OUT: '39 passed, 0 failed\nTypeError: x\n', FAKE_DOCS_RC: '1' });
    expect(r.out).toContain('FAILED: its last line is not "N passed, N failed"');
    expect(r.status).toBe(1);
  });

  it('is red when the counter itself prints no numbers', () => {
    const r = runWithReport((dir) => {
      writeFileSync(path.join(dir, 'test/tools/count-results.js'), 'process.exit(0);\n');
      return reportFile(dir, ['passed']);
    });
    expect(r.out).toContain('FAILED: vitest: its results could not be counted');
    expect(r.out).toContain('FAILED: firmware host tests: its results could not be counted');
    expect(r.status).toBe(1);
  });

  it('counts typecheck and lint as one check each', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { FAKE_NPM_FAIL: 'lint' });
    expect(r.out).toContain('FAILED: lint exited 1');
    expect(r.closing).toBe('101 passed, 1 failed, 0 skipped');
  });

  it('stops at once, red, when npm ci fails', () => {
    const r = runAll({ FAKE_NPM_FAIL: 'ci' });
    expect(r.closing).toBe('0 passed, 1 failed, 0 skipped');
    expect(r.status).toBe(1);
    expect(r.log).not.toContain('npx');
  });

  it('with ZAPTABLE_SKIP_INSTALL=1 installs nothing and only builds dist/', () => {
    const r = runWithReport((dir) => reportFile(dir, ['passed']), { ZAPTABLE_SKIP_INSTALL: '1' });
    expect(r.out).toContain('built');
    expect(r.log).not.toContain('npm ci');
    expect(r.status).toBe(0);
  });

  it('leaves no zaptable scenario step (the scenario files are counted by vitest only)', () => {
    const script = readFileSync(path.join(root, 'test/run-all.sh'), 'utf8');
    expect(script).not.toMatch(/^[^#]*zaptable\.mjs scenario/m);
    expect(existsSync(path.join(root, 'test/rules/zip-zap/scenarios.test.ts'))).toBe(true);
    expect(existsSync(path.join(root, 'test/rules/zapp-zerapp/scenarios.test.ts'))).toBe(true);
  });
});
