import { describe, expect, it } from 'vitest';
import { applied, reject } from '../../controller/rules/common/outcome.ts';
import type { AnyEngine } from '../../controller/rules/games.ts';
import { runScenario, scenarioPassed } from '../../controller/scenarios/run-scenario.ts';
import { parseScenario, type Scenario } from '../../controller/scenarios/scenario.ts';

/** A toy game, so that the runner is tested on its own: add 1..3 to a counter that may not pass 10. */
interface Toy { n: number; secret: string }
const toy: AnyEngine = {
  id: 'zip-zap',
  setup: () => applied({ n: 0, secret: 'hidden-7' }, []),
  apply: (state, action) => {
    const s = state as Toy;
    const k = (action as unknown as { k: number }).k;
    if (s.n + k > 10) return reject('TOO_BIG', `${s.n} + ${k} passes 10`);
    return applied({ ...s, n: s.n + k }, [{ type: 'ADDED', k, total: s.n + k }]);
  },
  legalActions: () => [],
  view: (state, viewer) => (viewer.role === 'omniscient' ? state : { n: (state as Toy).n }),
  result: (state) => ({ over: (state as Toy).n === 10, winners: [], scores: {}, rounds: 0 }),
  parseAction: (value) => {
    const k = (value as { k?: unknown }).k;
    return typeof k === 'number' ? { type: 'add', k } as never : { error: 'k must be a number', code: 'BAD_ACTION' };
  },
  fromScenario: (setup) => {
    const n = (setup as { n?: unknown }).n;
    return typeof n === 'number' ? applied({ n, secret: 'hidden-7' }, []) : reject('BAD_SETUP', 'n must be a number');
  },
  publicRejection: (_action, rejection) => ({
    code: rejection.code, message: rejection.message, reason: rejection.message, card: null,
  }),
};

function scenario(cases: unknown[], setup: unknown = { n: 5 }): Scenario {
  const parsed = parseScenario({ id: 'TOY-1', game: 'zip-zap', setup, cases });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.scenario;
}

describe('scenario runner', () => {
  it('passes a case whose expectations hold', () => {
    const report = runScenario(scenario([{
      name: 'add then overflow',
      steps: [
        { action: { type: 'add', k: 3 }, expect: { state: { n: 8 }, public: { n: 8 }, events: [{ type: 'ADDED', total: 8 }], publicLacks: ['hidden-7'] } },
        { action: { type: 'add', k: 3 }, expect: { rejected: 'TOO_BIG', state: { n: 8 } } },
      ],
      expect: { state: { 'secret.length': 8 } },
    }]), toy);
    expect(report.errors).toEqual([]);
    expect(report.cases[0]?.failures).toEqual([]);
    expect(scenarioPassed(report)).toBe(true);
  });

  it('fails each kind of wrong expectation, with a reason', () => {
    const report = runScenario(scenario([
      { name: 'wrong state', steps: [{ action: { type: 'add', k: 1 }, expect: { state: { n: 7 } } }] },
      { name: 'wrong code', steps: [{ action: { type: 'add', k: 9 }, expect: { rejected: 'OTHER' } }] },
      { name: 'expected rejection', steps: [{ action: { type: 'add', k: 1 }, expect: { rejected: 'TOO_BIG' } }] },
      { name: 'unexpected rejection', steps: [{ action: { type: 'add', k: 9 } }] },
      { name: 'missing event', steps: [{ action: { type: 'add', k: 1 }, expect: { events: [{ type: 'REMOVED' }] } }] },
      { name: 'leak', steps: [{ action: { type: 'add', k: 1 }, expect: { publicLacks: ['6'] } }] },
      { name: 'malformed action', steps: [{ action: { type: 'add' } }] },
      { name: 'final', steps: [], expect: { state: { n: 0 } } },
    ]), toy);
    expect(report.cases.map((c) => c.passed)).toEqual([false, false, false, false, false, false, false, false]);
    expect(report.cases[0]?.failures[0]).toContain('state.n is 6, expected 7');
    expect(report.cases[1]?.failures[0]).toContain('got TOO_BIG');
    expect(report.cases[5]?.failures[0]).toContain('public view contains');
    expect(report.cases[6]?.failures[0]).toContain('rejected with BAD_ACTION: k must be a number');
    expect(scenarioPassed(report)).toBe(false);
  });

  it('lets a case expect a parse refusal by its code, and fails a wrong code', () => {
    const report = runScenario(scenario([
      { name: 'expected parse refusal', steps: [{ action: { type: 'add' }, expect: { rejected: 'BAD_ACTION', state: { n: 5 } } }] },
      { name: 'wrong parse code', steps: [{ action: { type: 'add' }, expect: { rejected: 'UNKNOWN_FIELD' } }] },
    ]), toy);
    expect(report.cases.map((c) => c.passed)).toEqual([true, false]);
    expect(report.cases[1]?.failures[0]).toContain('expected rejection UNKNOWN_FIELD, got BAD_ACTION');
  });

  it('reports a setup the engine rejects', () => {
    const report = runScenario(scenario([{ name: 'x', steps: [] }], { n: 'five' }), toy);
    expect(report.errors[0]).toContain('BAD_SETUP');
    expect(scenarioPassed(report)).toBe(false);
  });

  it('reports every problem of a malformed scenario file at once, with paths', () => {
    const parsed = parseScenario({ game: 'chess', cases: [{ steps: [{ expect: {} }] }] });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual(expect.arrayContaining([
      'id: required, a non-empty string',
      'game: must be one of zip-zap, zapp-zerapp, killer-21',
      'setup: required',
      'cases.0.name: required, a non-empty string',
      'cases.0.steps.0: must be an object with an \'action\'',
    ]));
  });
});
