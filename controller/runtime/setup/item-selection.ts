/**
 * Which items an enrollment run asks for: all 69, one group (`--only barrels|cards|zaps`), or items to tag
 * anew (`--redo ITEM`, a damaged or lost tag). Names are forgiving — `barrel:7`, `7`, `R4`, `card:R4`,
 * `Z2` — because a person types them at a table, but anything that is not one of the game's items is an error.
 */
import { reject, type Result } from '../../kernel/result.ts';
import { ALL_ITEMS, EVERY_ITEM, itemKey, itemLabel, parseItemKey, type Item } from '../registry/items.ts';

/** Groups for `--only`: Zapp Zerapp's barrels, Zip-Zap's cards and ZAP cards, Killer-21's cards and chips. */
export const ITEM_GROUPS = ['barrels', 'cards', 'zaps', 'k21-cards', 'chips'] as const;
export type ItemGroup = (typeof ITEM_GROUPS)[number];

const GROUP_KIND: Readonly<Record<ItemGroup, Item['kind']>> = {
  barrels: 'barrel', cards: 'card', zaps: 'zap', 'k21-cards': 'k21', chips: 'chip',
};

/** An item named on the command line, or undefined. */
export function parseItemName(name: string): Item | undefined {
  const text = name.trim();
  if (/^\d+$/.test(text)) return parseItemKey(`barrel:${text}`);
  const upper = text.includes(':') ? text : text.toUpperCase();
  return parseItemKey(upper) ?? parseItemKey(`card:${upper}`) ?? parseItemKey(`zap:${upper}`) ?? parseItemKey(`k21:${upper}`);
}

export type Selection = Result<{ readonly items: readonly Item[]; readonly redo: readonly Item[] }, 'BAD_SELECTION'>;

/**
 * The items of a run, in enrollment order. `only` is a comma-separated list of groups; `redo` names items
 * whose tag is replaced. With `redo` alone, only those items are asked for.
 */
export function selectItems(only: string | undefined, redo: readonly string[] = []): Selection {
  let groups: ItemGroup[] | undefined;
  if (only !== undefined) {
    const names = only.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const bad = names.filter((n) => !(ITEM_GROUPS as readonly string[]).includes(n));
    if (names.length === 0 || bad.length > 0) return reject('BAD_SELECTION', `--only takes ${ITEM_GROUPS.join(', ')} (comma-separated), got "${only}"`);
    groups = names as ItemGroup[];
  }
  const redoItems: Item[] = [];
  for (const name of redo) {
    const item = parseItemName(name);
    if (item === undefined) return reject('BAD_SELECTION', `--redo: "${name}" is not an item (barrel:1..13 or 1..13, a card such as R4, a ZAP card Z1..Z6)`);
    if (!redoItems.some((i) => itemKey(i) === itemKey(item))) redoItems.push(item);
  }
  const kinds = groups?.map((g) => GROUP_KIND[g]);
  const redoKeys = new Set(redoItems.map(itemKey));
  // Without `--only`, enrollment asks for the items of the first two games (ALL_ITEMS); Killer-21's deck and
  // chips are asked for by name (`--only k21-cards,chips`), so an existing box's run is unchanged.
  const items = (kinds === undefined ? ALL_ITEMS : EVERY_ITEM).filter((item) => {
    if (kinds !== undefined) return kinds.includes(item.kind);
    return redoItems.length === 0 || redoKeys.has(itemKey(item));
  });
  // A redo outside the chosen groups is still asked for: the person named it explicitly.
  const extra = redoItems.filter((r) => !items.some((i) => itemKey(i) === itemKey(r)));
  return { ok: true, items: [...items, ...extra], redo: redoItems };
}

/** A short label for progress bars: `#4` (barrel 4; `B4` is the blue 4), `R10`, `Z2`. */
export function shortLabel(item: Item): string {
  return itemLabel(item);
}
