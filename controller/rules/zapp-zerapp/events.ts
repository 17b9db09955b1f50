/**
 * Events the engine emits, in order, with every applied action. Events are public: before the reveal they
 * never carry a barrel value (design principle 2); barrels are identical from the outside.
 */
import type { Colour } from './board-spec.ts';
import type { Loc, Variant } from './board.ts';
import type { RevealEntry, ViolationKind } from './state.ts';

/** Why a barrel went back to the mountain. */
export type ReturnReason = 'FAILED' | 'MOVED' | 'PASSED' | 'GAME_OVER';

/** Everything an applied action can emit, in order. */
export type ZappEvent =
  /** setup: who plays which colour on which board. */
  | { readonly type: 'GAME_STARTED'; readonly players: readonly { id: string; colour: Colour }[]; readonly variant: Variant; readonly board: string }
  /** ZAPP-10: the magic number, from the engine's generator (`ENGINE`) or entered by a person (`ENTERED`). */
  | { readonly type: 'DICE_ROLLED'; readonly round: number; readonly d1: number; readonly d2: number; readonly magic: number;
    readonly by: string | null; readonly source: 'ENGINE' | 'ENTERED'; }
  /** ZAPP-20: a barrel left the mountain for a player's hands (its number stays secret). */
  | { readonly type: 'BARREL_PICKED_UP'; readonly player: string }
  | { readonly type: 'BARREL_PUT_BACK'; readonly player: string }
  /** ZAPP-24: a player committed a barrel; `returned` barrels still in hand went back to the mountain. */
  | { readonly type: 'BARREL_PLACED'; readonly player: string; readonly returned: number }
  /** ZAPP-27/28/30: everyone's barrel, the successes and the move order. */
  | { readonly type: 'BARRELS_REVEALED'; readonly magic: number; readonly results: readonly RevealEntry[]; readonly moveOrder: readonly string[] }
  /** ZAPP-28, ZAPP-32: a revealed barrel went back to the mountain. */
  | { readonly type: 'BARREL_RETURNED'; readonly player: string; readonly barrel: number; readonly reason: ReturnReason }
  /** ZAPP-30: this player moves now, by `steps`. */
  | { readonly type: 'MOVER_CALLED'; readonly player: string; readonly steps: number }
  /** ZAPP-31..47: a piece moved; `forfeited` steps were dropped entering the city (ZAPP-44). */
  | { readonly type: 'PIECE_MOVED'; readonly player: string; readonly piece: string; readonly from: Loc; readonly to: Loc;
    readonly path: readonly number[]; readonly steps: number; readonly forfeited: number; }
  /** ZAPP-50, ZAPP-56: a piece went back to its START. */
  | { readonly type: 'PIECE_BANISHED'; readonly piece: string; readonly from: number; readonly by: string; readonly claimed: boolean }
  /** ZAPP-63..68: a piece was carried and put down at `to`. */
  | { readonly type: 'PIECE_CARRIED'; readonly piece: string; readonly from: number; readonly to: Loc; readonly by: string }
  /** ZAPP-57 CLAIM mode: pieces the mover may claim until the next mover acts. */
  | { readonly type: 'BANISHMENT_CLAIMABLE'; readonly player: string; readonly pieces: readonly string[] }
  /** ZAPP-57: the claim window closed; `unclaimed` pieces were lucky and stay. */
  | { readonly type: 'CLAIM_WINDOW_CLOSED'; readonly player: string; readonly unclaimed: readonly string[] }
  /** ZAPP-Q-5 option: a successful player declined to move. */
  | { readonly type: 'MOVE_PASSED'; readonly player: string }
  /** ZAPP-34 / ZAPP-28: the round ended. */
  | { readonly type: 'ROUND_ENDED'; readonly round: number; readonly reason: 'ALL_MOVED' | 'NOBODY_SUCCEEDED' }
  /** ZAPP-80. */
  | { readonly type: 'GAME_WON'; readonly player: string; readonly colour: Colour; readonly round: number }
  /** ZAPP-Q-11: a conduct violation was recorded. */
  | { readonly type: 'VIOLATION_REPORTED'; readonly player: string; readonly kind: ViolationKind; readonly detail: string | null };

/** Event type names. */
export type ZappEventType = ZappEvent['type'];
