/**
 * The simulator panel's operations on a simulated table: items become their simulated tags and weights, and the
 * simulated stations send real protocol lines through the real serial driver.
 */
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { reject, type Result } from '../kernel/result.ts';
import { cardInfo } from '../rules/zip-zap/index.ts';
import { EVERY_ITEM, itemKey, type Item } from '../runtime/registry/items.ts';
import { simulatedGrams, simulatedUid } from './simulated-items.ts';

export type SimulatorOp = 'place' | 'lift' | 'tap' | 'press' | 'unplug' | 'plug' | 'reset';

export type SimulatorResult = Result;

/** What an op will do, checked before anything happens: the tags it puts down or takes away, and the act itself. */
export type PreparedOp = Result<{
  readonly uids: readonly string[]; readonly hasScale: boolean; readonly act: () => void;
  /** The station is unplugged (or booting): the act happens in the world, but the table reads nothing now. */
  readonly offline: boolean;
}>;

/**
 * The item as the tag registry knows it. A ZAP card is kind `zap` there (`zap:Z1`); the panel once sent it as
 * `{kind: 'card', card: 'Z1'}`, which matched no enrolled tag and read as UNKNOWN_TAG: both spellings are the
 * same card. Undefined for an item the game does not have.
 */
export function normaliseItem(item: Item): Item | undefined {
  const normal: Item = (item.kind === 'card' || item.kind === 'zap') && cardInfo(item.card)?.kind === 'ZAP'
    ? { kind: 'zap', card: item.card } : item;
  return EVERY_ITEM.some((i) => itemKey(i) === itemKey(normal)) ? normal : undefined;
}

/** `padTags`: the tags the table believes lie on the station's pad (what a lift will take away). */
export function prepareSimulatorOp(
  table: SimulatedTable, station: string, op: SimulatorOp, given?: Item, grams?: number, padTags: readonly string[] = [],
): PreparedOp {
  if (!table.names().includes(station)) return reject('UNKNOWN_STATION', `no simulated station ${station}`);
  // `lift` without an item clears the pad (the simulator panel's Lift button: whatever lies there goes back).
  const needsItem = op === 'place' || op === 'tap';
  if (needsItem && given === undefined) return reject('ITEM_REQUIRED', `${op} needs an item`);
  const item = given === undefined ? undefined : normaliseItem(given);
  if (given !== undefined && item === undefined) {
    return reject('UNKNOWN_ITEM', `${JSON.stringify(given)} is not a barrel or card of the games`);
  }
  const sim = table.station(station);
  const kind = sim.config.kind;
  // An item can be put on or taken off an unplugged station's pad (the world goes on); the station reads it
  // once it is back.
  const offline = !sim.running;
  if (op === 'press' && kind !== 'seat') return reject('NO_BUTTON', `${station} is a ${kind} station: it has no button`);
  const uid = item === undefined ? undefined : simulatedUid(item);
  const hasScale = kind === 'seat';
  const ready = (uids: readonly string[], act: () => void): PreparedOp => ({ ok: true, uids, hasScale, act, offline });
  switch (op) {
    case 'place':
      return ready([uid as string], () => {
        table.placeItem(station, { uid: uid, grams: grams ?? simulatedGrams(item as Item) });
      });
    case 'lift':
      return ready(uid === undefined ? padTags : padTags.filter((u) => u === uid), () => {
        for (const u of uid === undefined ? EVERY_ITEM.map(simulatedUid) : [uid]) table.liftItem(station, u);
      });
    case 'tap':
      return ready([uid as string], () => {
        table.tapCard(station, uid as string);
      });
    case 'press':
      return ready([], () => {
        table.pressButton(station);
      });
    case 'unplug':
      return ready([], () => {
        table.unplug(station);
      });
    case 'plug':
      return ready([], () => {
        table.plugIn(station);
      });
    case 'reset':
      return ready([], () => {
        table.reset(station);
      });
  }
}

/** Carries an op out at once, without waiting for the table (buzzer tables: their buttons). */
export function runSimulatorOp(
  table: SimulatedTable, station: string, op: SimulatorOp, item?: Item, grams?: number,
): SimulatorResult {
  const prepared = prepareSimulatorOp(table, station, op, item, grams);
  if (!prepared.ok) return prepared;
  prepared.act();
  return { ok: true };
}
