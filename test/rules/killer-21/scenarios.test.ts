/**
 * Runs every Killer-21 scenario file (test/scenarios/killer-21/*.json) through the shared scenario runner, and
 * checks that the files cover the spec: every numbered rule K21-n of docs/rules/killer-21.md is in some file's
 * `rules`, and every test scenario K21-T-n has its file. The deliberately wrong scenarios (wrong/) must fail.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, runKillerScenario, SCENARIO_DIR, scenarioFiles } from './scenario-files.ts';

const spec = readFileSync(path.resolve(import.meta.dirname, '../../../docs/rules/killer-21.md'), 'utf8');
const files = scenarioFiles(SCENARIO_DIR);
const scenarios = files.map((f) => loadScenario(path.join(SCENARIO_DIR, f)));

describe('Killer-21 scenario files cover the spec', () => {
  const rules = [...new Set([...spec.matchAll(/\*\*(K21-\d+)\*\*/g)].map((m) => m[1] as string))];
  const tests = [...new Set([...spec.matchAll(/^\| (K21-T-\d+)[ ,]/gm)].map((m) => m[1] as string))];

  it('the spec numbers its rules and test scenarios', () => {
    expect(rules.length).toBeGreaterThan(40);
    expect(tests.length).toBeGreaterThan(30);
  });

  it('has a scenario for every numbered rule K21-n', () => {
    const covered = new Set(scenarios.flatMap((s) => s.rules));
    expect(rules.filter((r) => !covered.has(r))).toEqual([]);
  });

  it('has a file for every test scenario K21-T-n, and names only rules the spec defines', () => {
    const ids = scenarios.map((s) => s.id);
    expect(tests.filter((t) => !ids.some((id) => id === t || new RegExp(`^${t}[a-z]$`).test(id)))).toEqual([]);
    const known = new Set(rules);
    expect(scenarios.flatMap((s) => s.rules).filter((r) => !known.has(r))).toEqual([]);
  });
});

describe('Killer-21 scenarios', () => {
  it.each(files)('%s', (file) => {
    const report = runKillerScenario(path.join(SCENARIO_DIR, file));
    expect(report.errors).toEqual([]);
    const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.name}: ${c.failures.join(' | ')}`);
    expect(failed).toEqual([]);
    expect(report.cases.length).toBeGreaterThan(0);
  });
});

describe('deliberately wrong Killer-21 scenarios', () => {
  const dir = path.join(SCENARIO_DIR, 'wrong');
  it.each(scenarioFiles(dir))('%s fails every case, with a reason', (file) => {
    const report = runKillerScenario(path.join(dir, file));
    expect(report.errors).toEqual([]);
    expect(report.cases.length).toBeGreaterThan(0);
    for (const c of report.cases) {
      expect(c.passed).toBe(false);
      expect(c.failures.length).toBeGreaterThan(0);
    }
  });
});
