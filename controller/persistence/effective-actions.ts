/**
 * Which logged actions are in force: every action row of a game minus those a correction undid. Undo is a
 * correction row naming the seq of the action it reverts (the log itself is never changed), and the writer
 * only accepts an undo of the last action still in force, so the remaining list always replays cleanly.
 */
import type { BaseAction } from '../rules/engine.ts';
import type { StepRow } from './log-reader.ts';
import { parseJson, type Correction } from './rows.ts';

export interface EffectiveAction {
  readonly seq: number;
  readonly action: BaseAction;
}

/** The seqs of the actions that corrections among `steps` have undone. */
export function undoneSeqs(steps: readonly StepRow[]): Set<number> {
  const undone = new Set<number>();
  for (const step of steps) {
    if (step.kind !== 'correction') continue;
    // Read defensively: the row is data from a file, whatever the types say.
    const correction = parseJson(step.payload, `log row ${step.seq}`) as Partial<Correction> | null;
    const action = correction?.action as { type?: unknown; seq?: unknown } | undefined;
    if (action?.type === 'undo' && typeof action.seq === 'number') undone.add(action.seq);
  }
  return undone;
}

/** The seqs of the actions in force, in log order (parses only the corrections). */
export function effectiveSeqs(steps: readonly StepRow[]): number[] {
  const undone = undoneSeqs(steps);
  return steps.filter((s) => s.kind === 'action' && !undone.has(s.seq)).map((s) => s.seq);
}

/** The actions in force, in log order, optionally only those after `afterSeq` (for a snapshot). */
export function effectiveActions(steps: readonly StepRow[], afterSeq = 0): EffectiveAction[] {
  const undone = undoneSeqs(steps);
  const actions: EffectiveAction[] = [];
  for (const step of steps) {
    if (step.kind !== 'action' || step.seq <= afterSeq || undone.has(step.seq)) continue;
    const payload = parseJson(step.payload, `log row ${step.seq}`) as { action: BaseAction };
    actions.push({ seq: step.seq, action: payload.action });
  }
  return actions;
}
