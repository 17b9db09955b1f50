/**
 * Runs every Zip-Zap scenario file (test/scenarios/zip-zap/*.json, one per ZIP-T scenario of the rules spec
 * and per ZIP-Q resolution that matters) through the shared scenario runner.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenarioFile } from '../../../controller/scenarios/run-scenario.ts';

const dir = path.resolve(import.meta.dirname, '../../scenarios/zip-zap');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('Zip-Zap scenarios', () => {
  it('has a file for every A.12 scenario', () => {
    const ids = ['1', '2', '3', '5', '5c', '8', '8b', '13', '15', '18', '19', '20', '22'].map((n) => `ZIP-T-${n}.json`);
    for (const id of ids) expect(files).toContain(id);
  });

  it.each(files)('%s', async (file) => {
    const report = await runScenarioFile(path.join(dir, file));
    expect(report.errors).toEqual([]);
    const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.name}: ${c.failures.join(' | ')}`);
    expect(failed).toEqual([]);
    expect(report.cases.length).toBeGreaterThan(0);
  });
});
