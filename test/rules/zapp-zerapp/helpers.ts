// Small helpers for the Zapp Zerapp unit tests.
import { expect } from 'vitest';
import { zappZerappEngine as engine, type ZappAction, type ZappEvent, type ZappState } from '../../../controller/rules/zapp-zerapp/index.ts';

/** A state from a scenario setup; fails the test on BAD_SETUP. */
export function scenario(setup: Record<string, unknown>): ZappState {
  const out = engine.fromScenario(setup);
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
  return out.state;
}

/** Applies an action that must be accepted. */
export function act(state: ZappState, action: ZappAction): { state: ZappState; events: readonly ZappEvent[] } {
  const out = engine.apply(state, action);
  if (!out.ok) throw new Error(`${action.type} rejected: ${out.code}: ${out.message}`);
  return out;
}

/** Asserts that an action is rejected with `code` and the state is untouched. */
export function rejects(state: ZappState, action: ZappAction, code: string): void {
  const before = JSON.stringify(state);
  const out = engine.apply(state, action);
  expect(out.ok ? 'applied' : out.code).toBe(code);
  expect(JSON.stringify(state)).toBe(before);
}
