/**
 * The simulator panel's operations on a simulated table: items become their simulated tags and weights, and the
 * simulated stations send real protocol lines through the real serial driver.
 */
import type { SimulatedTable } from '../hardware/simulated/index.ts';
import { EVERY_ITEM, type Item } from '../runtime/registry/items.ts';
import { simulatedGrams, simulatedUid } from './simulated-items.ts';

export type SimulatorOp = 'place' | 'lift' | 'tap' | 'press' | 'unplug' | 'plug' | 'reset';

export type SimulatorResult = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

export function runSimulatorOp(
  table: SimulatedTable, station: string, op: SimulatorOp, item?: Item, grams?: number,
): SimulatorResult {
  if (!table.names().includes(station)) return { ok: false, code: 'UNKNOWN_STATION', message: `no simulated station ${station}` };
  // `lift` without an item clears the pad (the simulator panel's Lift button: whatever lies there goes back).
  const needsItem = op === 'place' || op === 'tap';
  if (needsItem && item === undefined) return { ok: false, code: 'ITEM_REQUIRED', message: `${op} needs an item` };
  switch (op) {
    case 'place':
      table.placeItem(station, { uid: simulatedUid(item as Item), grams: grams ?? simulatedGrams(item as Item) });
      return { ok: true };
    case 'lift':
      for (const uid of item === undefined ? EVERY_ITEM.map(simulatedUid) : [simulatedUid(item)]) table.liftItem(station, uid);
      return { ok: true };
    case 'tap':
      table.tapCard(station, simulatedUid(item as Item));
      return { ok: true };
    case 'press':
      table.pressButton(station);
      return { ok: true };
    case 'unplug':
      table.unplug(station);
      return { ok: true };
    case 'plug':
      table.plugIn(station);
      return { ok: true };
    case 'reset':
      table.reset(station);
      return { ok: true };
  }
}
