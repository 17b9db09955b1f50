/**
 * Whether a Zapp Zerapp seat pad's live reading could tell a secret (design principle 2): in ROLL (a barrel put
 * down early counts as the choice when SELECT opens) and SELECT always, and in MOVE unless every barrel on it
 * is one this round's reveal showed (a barrel's weight gives its number too). Shown once the game is over.
 */
import type { ZappState } from '../../rules/zapp-zerapp/index.ts';
import type { PadSnapshot } from '../games/table-plugin.ts';
import { lookupTag, type TagRegistry } from '../registry/tag-registry.ts';

export function zappPadSecret(pad: PadSnapshot, raw: unknown, registry: TagRegistry): boolean {
  const state = raw as Partial<ZappState>;
  if (state.phase === 'DONE') return false;
  if (state.phase !== 'MOVE') return true;
  const revealed = new Set((state.reveal?.results ?? []).map((r) => r.barrel));
  return pad.tags.some((uid) => {
    const item = lookupTag(registry, uid);
    return item?.kind !== 'barrel' || !revealed.has(item.value);
  }) || (pad.tags.length === 0 && pad.grams !== null && pad.grams > 0);
}
