/**
 * What the table logic wants done after a sensor event or a state change, as plain data. The runtime carries
 * intents out (apply the action, record the violation, tell the referee); the logic that produces them is pure
 * and unit-tested without any hardware.
 */
import type { BaseAction } from '../rules/engine.ts';
import type { StationId } from '../hardware/interface.ts';

/** An engine action as the runtime builds it (the engine's `parseAction` checks its shape). */
export type RuntimeAction = BaseAction & Readonly<Record<string, unknown>>;

export type Intent =
  /** Apply this action to the engine. */
  | { readonly kind: 'action'; readonly action: RuntimeAction }
  /** Tell the referee (MQTT event + dashboard); nothing in the game changes. */
  | { readonly kind: 'notice'; readonly code: NoticeCode; readonly message: string; readonly station?: StationId; readonly player?: string };

/** Stable codes of the notices the table logic raises. */
export type NoticeCode =
  | 'UNKNOWN_TAG'
  | 'NOT_A_SEAT'
  | 'WEIGHT_MISMATCH'
  | 'BARREL_NOT_AVAILABLE'
  | 'CHOOSE_ON_DASHBOARD'
  | 'PADS_NOT_CLEAR'
  | 'OWNER_UNKNOWN'
  | 'WRONG_ITEM'
  /** Killer-21: the chips on a seat pad disagree with the engine's lives (runtime/killer-21/chips.ts). */
  | 'CHIPS_MISMATCH'
  /** Killer-21 dealt at the table: a card on the pile while hands are registered, after the deal or for a tie-break (runtime/killer-21/card-pads.ts). */
  | 'REGISTERING';

export function action(a: RuntimeAction): Intent {
  return { kind: 'action', action: a };
}
