/** Small helpers shared by the Killer-21 unit and property tests. */
import { expect } from 'vitest';
import type { Outcome } from '../../../controller/rules/common/outcome.ts';
import { OMNISCIENT } from '../../../controller/rules/common/viewer.ts';
import {
  killer21Engine, type Killer21Action, type Killer21Event, type Killer21OmniscientView, type Killer21State,
} from '../../../controller/rules/killer-21/index.ts';

/** The state of an applied outcome; fails the test (with the rejection) otherwise. */
export function ok<S, E>(outcome: Outcome<S, E>): { state: S; events: readonly E[] } {
  if (!outcome.ok) expect.fail(`rejected: ${outcome.code}: ${outcome.message}`);
  return outcome;
}

/** The rejection code of an outcome, or 'APPLIED'. */
export function codeOf(outcome: Outcome<unknown, unknown>): string {
  return outcome.ok ? 'APPLIED' : outcome.code;
}

/** A state from a scenario setup. */
export function scenario(setup: unknown): Killer21State {
  return ok(killer21Engine.fromScenario(setup)).state;
}

/** Applies actions in order, failing on a rejection; returns the last state and all events. */
export function run(state: Killer21State, ...actions: Killer21Action[]): { state: Killer21State; events: Killer21Event[] } {
  let s = state;
  const events: Killer21Event[] = [];
  for (const a of actions) {
    const r = ok(killer21Engine.apply(s, a));
    s = r.state;
    events.push(...r.events);
  }
  return { state: s, events };
}

/** The omniscient view. */
export function omni(state: Killer21State): Killer21OmniscientView {
  return killer21Engine.view(state, OMNISCIENT) as Killer21OmniscientView;
}

/** Freezes a value deeply, so that any mutation by the engine throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const P4 = ['A', 'B', 'C', 'D'];
