// Runs every Zapp Zerapp scenario file (test/scenarios/zapp-zerapp/*.json) through the lead's scenario runner,
// one vitest test per case, so a failing expectation names its file and case.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenarioFile } from '../../../controller/scenarios/run-scenario.ts';

const dir = join(import.meta.dirname, '..', '..', 'scenarios', 'zapp-zerapp');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('Zapp Zerapp scenario files', () => {
  it('covers every B.12 scenario the brief names', () => {
    const ids = files.map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string }).id);
    for (const t of [1, 2, 3, 4, 5, 8, 14, 18, 22, 23, 24]) expect(ids).toContain(`ZAPP-T-${t}`);
  });

  for (const file of files) {
    it(file, async () => {
      const report = await runScenarioFile(join(dir, file));
      expect(report.errors).toEqual([]);
      expect(report.cases.length).toBeGreaterThan(0);
      const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.name}: ${c.failures.join(' | ')}`);
      expect(failed).toEqual([]);
    });
  }
});
