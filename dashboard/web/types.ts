/**
 * The shapes the pages read: the MQTT contract's payloads (controller/transport/payloads.ts) and the engines'
 * public views (docs/rules-engine.md), imported as types only, so nothing of the controller is bundled but the
 * board data.
 */
import type { HealthPayload, StatePayload } from '../../controller/transport/payloads.ts';
import type { ZappView } from '../../controller/rules/zapp-zerapp/view.ts';
import type { ZipZapPublicView } from '../../controller/rules/zip-zap/view.ts';
import type { BuzzerRankingRow, BuzzerView } from '../../controller/buzzer/view.ts';

export type { HealthPayload, StatePayload, ZappView, ZipZapPublicView, BuzzerView, BuzzerRankingRow };
export type { MoveOption, CarryOption } from '../../controller/rules/zapp-zerapp/move-options.ts';
export type { Colour, BoardSpec } from '../../controller/rules/zapp-zerapp/board-spec.ts';
export type { Loc } from '../../controller/rules/zapp-zerapp/board.ts';

/**
 * What the health page plots, if the controller adds it to a station's health (proposed to the lead):
 * the pad's settled weight and the item whose tag is read now, both withheld (`hidden: true`) while they would
 * tell a secret (a placed barrel's weight before the reveal, a hand being registered).
 */
export interface PadReading {
  readonly grams: number | null;
  readonly tag: { readonly kind: string; readonly label: string } | null;
  readonly hidden?: boolean;
}

/** A station's health as published, with the optional pad reading. */
export type StationHealth = HealthPayload & { readonly pad?: PadReading };

/** A seat as a `bridge/tables` entry may describe it (proposed to the lead). */
export interface BridgeSeat {
  readonly id: string;
  readonly name?: string;
  readonly colour?: string;
  readonly station?: string;
  readonly bot?: boolean;
}

/** One entry of `bridge/tables` (only `id` is guaranteed by the contract today). */
export interface BridgeTable {
  readonly id: string;
  readonly name?: string;
  readonly mode?: string;
  readonly simulated?: boolean;
  readonly seats?: readonly BridgeSeat[];
  readonly pileStation?: string;
  /** The table's configured rules (a new game keeps them). */
  readonly rules?: Readonly<Record<string, unknown>>;
  /** The controller that runs it: the `<controller>` level of the `bridge/<controller>/tables` topic listing it. */
  readonly controller?: string;
}

/** A public event: its type, `seq`, `at` and the event's own fields. */
export interface PublicEventJson {
  readonly type: string;
  readonly seq: number;
  readonly at: number;
  readonly [field: string]: unknown;
}

/** A game state, narrowed per game. */
export type GameState<V> = Extract<StatePayload, { mode: 'game' }> & { readonly view: V };

/** A buzzer table's state (docs/mqtt.md, "Buzzer mode"). */
export type BuzzerState = Extract<StatePayload, { mode: 'buzzer' }>;
