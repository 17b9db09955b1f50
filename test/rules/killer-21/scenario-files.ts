/**
 * Loads Killer-21 scenario files for the shared scenario runner. The runner's `parseScenario` accepts only the
 * registered games (`GAME_IDS`), and 'killer-21' is registered in phase B of issue 12. Until then the shape of a
 * file is checked by `parseScenario` with the game set aside, and the engine is handed to `runScenario`
 * explicitly; phase B replaces this file with `runScenarioFile`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GameId } from '../../../controller/rules/engine.ts';
import { killer21AsAnyEngine } from '../../../controller/rules/killer-21/index.ts';
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
  // Any registered id passes the shape check; the game field is restored below.
  const parsed = parseScenario({ ...json, game: 'zip-zap' });
  if (!parsed.ok) throw new Error(`${file}: ${parsed.errors.join('; ')}`);
  return { ...parsed.scenario, game: json.game as GameId };
}

/** Runs one file through the shared runner with the Killer-21 engine. */
export function runKillerScenario(file: string): ScenarioReport {
  return { ...runScenario(loadScenario(file), killer21AsAnyEngine), file };
}
