/**
 * Runs scenarios against the rules engines. `runScenario` is pure (scenario + engine → report);
 * `runScenarioFile` reads a file and picks the engine from the scenario's `game`.
 */
import { readFile } from 'node:fs/promises';
import { OMNISCIENT, PUBLIC } from '../rules/common/viewer.ts';
import { getEngine, type AnyEngine } from '../rules/games.ts';
import { matchesPartial, readPath, deepEqual, show } from './json-path.ts';
import { parseScenario, type Expectation, type Scenario } from './scenario.ts';

export interface CaseReport {
  readonly name: string;
  readonly passed: boolean;
  /** Why the case failed, one line per failed expectation (empty when it passed). */
  readonly failures: readonly string[];
}

export interface ScenarioReport {
  readonly id: string;
  readonly title: string;
  /** The file the scenario came from, when it was read from one. */
  readonly file?: string;
  readonly cases: readonly CaseReport[];
  /** Problems that stopped the scenario from running at all (bad file, bad setup). */
  readonly errors: readonly string[];
}

export function scenarioPassed(report: ScenarioReport): boolean {
  return report.errors.length === 0 && report.cases.every((c) => c.passed);
}

function checkViews(engine: AnyEngine, state: unknown, expect: Expectation, where: string, failures: string[]): void {
  if (expect.state) {
    const view = engine.view(state, OMNISCIENT);
    for (const [path, want] of Object.entries(expect.state)) {
      const got = readPath(view, path);
      if (!deepEqual(got, want)) failures.push(`${where}: state.${path} is ${show(got)}, expected ${show(want)}`);
    }
  }
  if (expect.public || expect.publicLacks) {
    const view = engine.view(state, PUBLIC);
    for (const [path, want] of Object.entries(expect.public ?? {})) {
      const got = readPath(view, path);
      if (!deepEqual(got, want)) failures.push(`${where}: public.${path} is ${show(got)}, expected ${show(want)}`);
    }
    const text = JSON.stringify(view);
    for (const secret of expect.publicLacks ?? []) {
      if (text.includes(secret)) failures.push(`${where}: the public view contains ${show(secret)}`);
    }
  }
}

/** Checks that `wanted` partial events occur in `events` as an ordered subsequence. */
function checkEvents(events: readonly unknown[], wanted: readonly unknown[], where: string, failures: string[]): void {
  let from = 0;
  for (const want of wanted) {
    const index = events.findIndex((e, i) => i >= from && matchesPartial(e, want));
    if (index < 0) {
      failures.push(`${where}: no event matching ${show(want)} (after earlier matches); events were ${show(events)}`);
      return;
    }
    from = index + 1;
  }
}

function runCase(engine: AnyEngine, initial: unknown, c: Scenario['cases'][number]): CaseReport {
  const failures: string[] = [];
  let state = initial;
  c.steps.forEach((step, i) => {
    if (failures.length > 0) return;
    const where = `step ${i + 1}`;
    const action = engine.parseAction(step.action);
    const expect = step.expect ?? {};
    // A malformed action is refused like any other, with its catalogue code: a scenario may expect it.
    const outcome = 'error' in action ? { ok: false as const, code: action.code, message: action.error } : engine.apply(state, action);
    if (expect.rejected !== undefined) {
      if (outcome.ok) failures.push(`${where}: expected rejection ${expect.rejected}, but the action was applied`);
      else if (outcome.code !== expect.rejected) {
        failures.push(`${where}: expected rejection ${expect.rejected}, got ${outcome.code} (${outcome.message})`);
      }
      // A rejection changes nothing, so later expectations in this step read the unchanged state.
      checkViews(engine, state, expect, where, failures);
      return;
    }
    if (!outcome.ok) {
      failures.push(`${where}: rejected with ${outcome.code}: ${outcome.message}`);
      return;
    }
    state = outcome.state;
    if (expect.events) checkEvents(outcome.events, expect.events, where, failures);
    checkViews(engine, state, expect, where, failures);
  });
  if (failures.length === 0 && c.expect) checkViews(engine, state, c.expect, 'end of case', failures);
  return { name: c.name, passed: failures.length === 0, failures };
}

/** Runs every case of a scenario. Each case starts from a fresh state built from the scenario's setup. */
export function runScenario(scenario: Scenario, engine: AnyEngine = getEngine(scenario.game)): ScenarioReport {
  const setup = engine.fromScenario(scenario.setup);
  if (!setup.ok) {
    return { id: scenario.id, title: scenario.title, cases: [], errors: [`SETUP_REJECTED: ${setup.code}: ${setup.message}`] };
  }
  const cases = scenario.cases.map((c) => runCase(engine, setup.state, c));
  return { id: scenario.id, title: scenario.title, cases, errors: [] };
}

/**
 * Reads, validates and runs one scenario file. Never throws for a bad file: the report carries the errors, each
 * starting with its code (`SCENARIO_UNREADABLE`, `SCENARIO_INVALID`, `SETUP_REJECTED`).
 */
export async function runScenarioFile(file: string): Promise<ScenarioReport> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { id: file, title: '', file, cases: [], errors: [`SCENARIO_UNREADABLE: cannot read ${file}: ${(error as Error).message}`] };
  }
  const parsed = parseScenario(json);
  if (!parsed.ok) return { id: file, title: '', file, cases: [], errors: parsed.errors.map((e) => `SCENARIO_INVALID: ${file}: ${e}`) };
  return { ...runScenario(parsed.scenario), file };
}
