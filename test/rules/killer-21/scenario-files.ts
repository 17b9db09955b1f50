/**
 * Loads Killer-21 scenario files for the shared scenario runner: 'killer-21' is a registered game
 * (rules/games.ts), so `parseScenario` checks the files as it checks every game's, and `runScenario` finds the
 * engine by the file's `game`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runScenario, type ScenarioReport } from '../../../controller/scenarios/run-scenario.ts';
import { parseScenario, type Scenario } from '../../../controller/scenarios/scenario.ts';

export const SCENARIO_DIR = path.resolve(import.meta.dirname, '../../scenarios/killer-21');

/** The scenario files of a folder, sorted. */
export function scenarioFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
}

/** Reads and checks one file; throws with every problem listed (a broken file is a test failure). */
export function loadScenario(file: string): Scenario {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (json.game !== 'killer-21') throw new Error(`${file}: game must be "killer-21"`);
  const parsed = parseScenario(json);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.errors.join('; ')}`);
  return parsed.scenario;
}

/** Runs one file through the shared runner (the engine comes from the registry by the file's `game`). */
export function runKillerScenario(file: string): ScenarioReport {
  return { ...runScenario(loadScenario(file)), file };
}
