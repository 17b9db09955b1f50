/**
 * `report-violation` (ZAPP-Q-11): the rules forbid peeking, snatching, holding too many barrels and placing
 * two, but give no penalty. A referee or the sensors (a committed tag leaving its pad, two tags on one pad,
 * C.2) report them; the engine records and announces them and changes nothing else. A human decides.
 */
import { applied } from '../common/outcome.ts';
import type { ReportViolationAction } from './actions.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { findPlayer, VIOLATION_KINDS, type ZappState } from './state.ts';

/** Records a violation in `state.violations` and emits VIOLATION_REPORTED. Accepted in every phase. */
export function applyReportViolation(state: ZappState, action: ReportViolationAction): ZappOutcome {
  if (!findPlayer(state, action.player)) return fail('UNKNOWN_PLAYER', `no player ${action.player}`);
  if (!(action.kind in VIOLATION_KINDS)) return fail('BAD_ACTION', `unknown violation kind ${action.kind as string}`);
  const detail = action.detail ?? null;
  const violation = { round: state.round, player: action.player, kind: action.kind, detail, at: action.at ?? null };
  return applied({ ...state, violations: [...state.violations, violation] },
    [{ type: 'VIOLATION_REPORTED', player: action.player, kind: action.kind, detail }]);
}
