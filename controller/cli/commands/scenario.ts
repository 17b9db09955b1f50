/**
 * `zaptable scenario FILE…`: runs scenario files (or every *.json under a folder) and reports each case.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { runScenarioFile } from '../../scenarios/run-scenario.ts';
import { parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

export const scenarioHelp = `zaptable scenario FILE|FOLDER... [--quiet]

Runs rule scenarios (docs/rules-engine.md, "Scenario format") and prints PASS or FAIL for every
case, with the reason of each failure. A folder is searched for *.json files recursively.
Exits 1 when any case fails or a file cannot be run.

  --quiet           print only failures and the summary`;

async function expand(target: string): Promise<string[]> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new UsageError(`no such file or folder: ${target}`);
  if (!info.isDirectory()) return [target];
  const entries = await readdir(target, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export async function scenarioCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values, positionals } = parse(argv, { quiet: { type: 'boolean' } });
  if (positionals.length === 0) throw new UsageError('scenario needs at least one FILE or FOLDER');
  const files = (await Promise.all(positionals.map(expand))).flat();
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    const report = await runScenarioFile(file);
    for (const error of report.errors) {
      failed++;
      io.out(`FAIL ${report.id}: ${error}`);
    }
    for (const c of report.cases) {
      if (c.passed) {
        passed++;
        if (!values.quiet) io.out(`PASS ${report.id} — ${c.name}`);
      } else {
        failed++;
        io.out(`FAIL ${report.id} — ${c.name}`);
        for (const f of c.failures) io.out(`     ${f}`);
      }
    }
  }
  io.out(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
