/**
 * The items of a simulated table: every barrel and card gets a made-up but stable tag UID and a weight, so the
 * simulated stations read them exactly as real ones would read real tags. (A real table enrolls its own tags
 * with `zaptable enroll`.)
 */
import { EVERY_ITEM, itemKey, type Item } from '../runtime/registry/items.ts';
import { EMPTY_REGISTRY, enrollTag, type TagRegistry } from '../runtime/registry/tag-registry.ts';
import type { BarrelWeights } from '../runtime/calibration/barrel-weights.ts';

/** A plausible box: 21.5 g barrel with plug and tag, 4.2 g per stone; a tagged card weighs 1.8 g. */
export const SIMULATED_WEIGHTS: BarrelWeights = { emptyGrams: 21.5, stoneGrams: 4.2, rmsResidualGrams: 0, samples: 0 };
export const SIMULATED_CARD_GRAMS = 1.8;
/** A Killer-21 life chip (a poker chip with a tag): far heavier than a card, so a pad's weight counts them. */
export const SIMULATED_CHIP_GRAMS = 8.5;

/** 7-byte UIDs like NTAG stickers (`04…`), derived from the item's position in EVERY_ITEM. */
export function simulatedUid(item: Item): string {
  const index = EVERY_ITEM.findIndex((i) => itemKey(i) === itemKey(item));
  return `04A1${(index + 1).toString(16).padStart(4, '0')}00C0DE`.toUpperCase();
}

export function simulatedGrams(item: Item): number {
  if (item.kind === 'barrel') return SIMULATED_WEIGHTS.emptyGrams + SIMULATED_WEIGHTS.stoneGrams * item.value;
  return item.kind === 'chip' ? SIMULATED_CHIP_GRAMS : SIMULATED_CARD_GRAMS;
}

export function simulatedRegistry(): TagRegistry {
  let registry = EMPTY_REGISTRY;
  for (const item of EVERY_ITEM) {
    const enrolled = enrollTag(registry, simulatedUid(item), item);
    if (!enrolled.ok) throw new Error(`simulated registry: ${enrolled.message}`);
    registry = enrolled.registry;
  }
  return registry;
}
