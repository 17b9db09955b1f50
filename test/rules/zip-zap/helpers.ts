/** Small helpers shared by the Zip-Zap unit tests. */
import { expect } from 'vitest';
import type { Outcome } from '../../../controller/rules/common/outcome.ts';
import { OMNISCIENT } from '../../../controller/rules/common/viewer.ts';
import {
  zipZapEngine, type ZipZapAction, type ZipZapEvent, type ZipZapOmniscientView, type ZipZapState,
} from '../../../controller/rules/zip-zap/index.ts';

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
export function scenario(setup: unknown): ZipZapState {
  return ok(zipZapEngine.fromScenario(setup)).state;
}

/** Applies actions in order, failing on a rejection; returns the last state and all events. */
export function run(state: ZipZapState, ...actions: ZipZapAction[]): { state: ZipZapState; events: ZipZapEvent[] } {
  let s = state;
  const events: ZipZapEvent[] = [];
  for (const a of actions) {
    const r = ok(zipZapEngine.apply(s, a));
    s = r.state;
    events.push(...r.events);
  }
  return { state: s, events };
}

/** The omniscient view. */
export function omni(state: ZipZapState): ZipZapOmniscientView {
  return zipZapEngine.view(state, OMNISCIENT) as ZipZapOmniscientView;
}
