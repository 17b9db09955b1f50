/**
 * Zapp Zerapp on the sensor table (rules-spec C.2): barrels on the seat pads become `place` actions, the reveal
 * happens by itself once every seat has placed, and what the sensors see against the rules becomes a
 * violation report (`report-violation`), never a silent correction. Pure.
 *
 * - A barrel counts as placed when its tag is read on the seat's pad and the weight has settled with it there.
 * - Two barrels on one pad → TWO_BARRELS_PLACED; a committed barrel leaving its pad before the reveal →
 *   LIFTED_AFTER_COMMIT; a barrel another player placed turning up on this pad → SNATCHING (ZAPP-23/25).
 * - A barrel whose tag and weight disagree is reported (WEIGHT_MISMATCH) but still counts: the tag is the
 *   barrel's identity, the weight a cross-check (C.2, ZAPP-1).
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import { placedBarrel, type ZappState } from '../../rules/zapp-zerapp/index.ts';
import { crossCheckBarrel, type BarrelWeights } from '../calibration/barrel-weights.ts';
import { action, type Intent } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import { describeItem } from '../registry/items.ts';
import { enrolledItems, lookupTag, type TagRegistry } from '../registry/tag-registry.ts';

export interface ZappTableContext {
  /** Station id → the player sitting there. */
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  readonly registry: TagRegistry;
  /** Learned barrel weights; without them the weight only has to be above `minBarrelGrams`. */
  readonly weights?: BarrelWeights;
  /** A settled weight below this is an empty pad (g). */
  readonly minBarrelGrams: number;
}

/** Barrel values whose tags lie on a pad. */
export function barrelsOnPad(pads: Pads, station: StationId, registry: TagRegistry): number[] {
  return enrolledItems(registry, pads[station]?.tags ?? []).flatMap((item) => (item.kind === 'barrel' ? [item.value] : []));
}

function report(player: string, kind: string, detail: string, at: number): Intent {
  return action({ type: 'report-violation', player, kind, detail, at });
}

/** Violations and notices caused by one sensor event (`padsAfter` already includes it). */
export function barrelEventIntents(state: ZappState, padsAfter: Pads, event: SensorEvent, ctx: ZappTableContext): Intent[] {
  const player = ctx.seatOfStation[event.station];
  if (event.kind !== 'tag-arrived' && event.kind !== 'tag-left') return [];
  const item = lookupTag(ctx.registry, event.uid);
  if (!item) {
    return event.kind === 'tag-arrived'
      ? [{ kind: 'notice', code: 'UNKNOWN_TAG', message: `tag ${event.uid} is not enrolled (run zaptable enroll)`, station: event.station }]
      : [];
  }
  if (item.kind !== 'barrel') {
    return event.kind === 'tag-arrived'
      ? [{ kind: 'notice', code: 'WRONG_ITEM', message: item.kind === 'card' || item.kind === 'zap' ? `a Zip-Zap card (${item.card}) on a Zapp Zerapp pad` : `${describeItem(item)} on a Zapp Zerapp pad`, station: event.station }]
      : [];
  }
  if (player === undefined) return [];
  if (state.phase !== 'SELECT') return [];
  const at = event.time.hostUs / 1000;
  const barrel = state.barrels[String(item.value)];
  const mine = placedBarrel(state, player);
  if (event.kind === 'tag-left') {
    return mine === item.value ? [report(player, 'LIFTED_AFTER_COMMIT', `barrel lifted from ${event.station} before the reveal`, at)] : [];
  }
  if (barrel?.at === 'PLACED' && barrel.player !== player) {
    return [report(player, 'SNATCHING', `took the barrel ${barrel.player} had placed`, at)];
  }
  if (mine !== null && mine !== item.value) {
    return [report(player, 'TWO_BARRELS_PLACED', `a second barrel on ${event.station} after committing`, at)];
  }
  if (mine === null && barrelsOnPad(padsAfter, event.station, ctx.registry).length > 1) {
    return [report(player, 'TWO_BARRELS_PLACED', `${barrelsOnPad(padsAfter, event.station, ctx.registry).length} barrels on ${event.station}`, at)];
  }
  return [];
}

/**
 * The `place` actions the pads call for now: every seat that has not placed, with exactly one barrel on its
 * pad and a weight settled with it there. Idempotent: the runtime calls it after every event and every
 * applied action (a barrel placed early during ROLL counts as soon as SELECT opens).
 */
export function placementIntents(state: ZappState, pads: Pads, ctx: ZappTableContext, at: number): Intent[] {
  if (state.phase !== 'SELECT') return [];
  const out: Intent[] = [];
  for (const [station, player] of Object.entries(ctx.seatOfStation)) {
    if (placedBarrel(state, player) !== null) continue;
    const pad = pads[station];
    const barrels = barrelsOnPad(pads, station, ctx.registry);
    if (!pad || barrels.length !== 1 || !pad.settledSinceChange || pad.grams === null || pad.grams < ctx.minBarrelGrams) continue;
    const value = barrels[0] as number;
    const loc = state.barrels[String(value)];
    if (loc?.at === 'PLACED') continue;
    if (loc?.at === 'HELD' && loc.player !== player) {
      out.push({ kind: 'notice', code: 'BARREL_NOT_AVAILABLE', message: `barrel on ${station} is held by ${loc.player}`, station, player });
      continue;
    }
    if (ctx.weights) {
      const check = crossCheckBarrel(ctx.weights, value, pad.grams);
      // Published before the reveal, so the notice must not name the barrel or its stone count (principle 2).
      if (!check.ok) {
        out.push({
          kind: 'notice', code: 'WEIGHT_MISMATCH', station, player,
          message: `the barrel on ${station} does not weigh what its tag says: check its filling and label after the round`,
        });
      }
    }
    out.push(action({ type: 'place', player, barrel: value, at }));
  }
  return out;
}

/** The reveal, once every seat has placed (ZAPP-27): the table turns the barrels over by itself. */
export function revealIntents(state: ZappState, at: number): Intent[] {
  const allPlaced = state.phase === 'SELECT' && state.players.every((p) => placedBarrel(state, p.id) !== null);
  return allPlaced ? [action({ type: 'reveal', at })] : [];
}

/** The seat button: the current mover confirms their only legal move; the roller rolls when the pads are clear. */
export function buttonIntents(state: ZappState, player: string, notClear: string | null, at: number,
  onlyMove: (state: ZappState, player: string) => Record<string, unknown> | null): Intent[] {
  if (state.phase === 'ROLL' && state.roller === player) {
    // `notClear`: why the pads are not clear (whose pad still holds a barrel), null when they are.
    if (notClear !== null) return [{ kind: 'notice', code: 'PADS_NOT_CLEAR', message: notClear, player }];
    return [action({ type: 'roll', player, at })];
  }
  if (state.phase === 'MOVE' && state.moveQueue[0] === player) {
    const move = onlyMove(state, player);
    if (move) return [action({ ...move, type: 'move', at })];
    return [{ kind: 'notice', code: 'CHOOSE_ON_DASHBOARD', message: `${player} has several legal moves: choose one on the dashboard`, player }];
  }
  return [];
}
