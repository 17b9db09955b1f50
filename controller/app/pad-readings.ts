/**
 * The pad readings published with each station's health (the dashboard's live weight plot and "tag read now"),
 * and the rule that withholds them while they would tell a secret (design principle 2):
 * - Zapp Zerapp: a seat pad is withheld whenever what lies on it could be (or become) a seat's secret choice: in
 *   ROLL (a barrel put down early counts as the choice when SELECT opens) and SELECT always, and in MOVE unless
 *   every barrel on it is one this round's reveal showed (a barrel's weight gives its number too). Shown once the
 *   game is over.
 * - Zip-Zap: cards on a seat pad are withheld (a refused card goes back to its owner's hand, a hand being
 *   registered or scored is secret); the pile station shows what lies on the public pile.
 */
import type { PadReading, SensorEvent } from '../hardware/interface.ts';
import type { GameId } from '../rules/engine.ts';
import type { ZappState } from '../rules/zapp-zerapp/index.ts';
import { describeItem } from '../runtime/registry/items.ts';
import { lookupTag, type TagRegistry } from '../runtime/registry/tag-registry.ts';

interface RawPad {
  grams: number | null;
  tags: string[];
}

export class PadReadings {
  private readonly pads = new Map<string, RawPad>();

  constructor(private readonly registry: TagRegistry) {}

  /** Folds a sensor event in; true when the pad's reading changed. */
  update(event: SensorEvent): boolean {
    const pad = this.pads.get(event.station) ?? { grams: null, tags: [] };
    this.pads.set(event.station, pad);
    switch (event.kind) {
      case 'weight-settled':
        pad.grams = event.grams;
        return true;
      case 'tag-arrived':
        if (!pad.tags.includes(event.uid)) pad.tags.push(event.uid);
        return true;
      case 'tag-left':
        pad.tags = pad.tags.filter((t) => t !== event.uid);
        return true;
      case 'button-pressed':
      case 'button-released':
      case 'slap':
        return false;
    }
  }

  /** Forgets a station's pad (unplugged: what lies there is unknown until it reports again). */
  forget(station: string): void {
    this.pads.delete(station);
  }

  /** The reading to publish for a station, withheld when the game state makes it a secret. */
  reading(station: string, game: GameId, state: unknown, isSeat: boolean): PadReading | undefined {
    const pad = this.pads.get(station);
    if (!pad) return undefined;
    const secret = isSeat && (game === 'zip-zap' || this.zappSecret(pad, state as Partial<ZappState>));
    if (secret) return { grams: null, tag: null, hidden: true };
    const uid = pad.tags.at(-1);
    const item = uid === undefined ? undefined : lookupTag(this.registry, uid);
    const tag = uid === undefined ? null : item ? { kind: item.kind, label: describeItem(item) } : { kind: 'unknown', label: uid };
    return { grams: pad.grams, tag };
  }

  /** Whether a Zapp Zerapp seat pad could show a secret now (see the file comment). */
  private zappSecret(pad: RawPad, state: Partial<ZappState>): boolean {
    if (state.phase === 'DONE') return false;
    if (state.phase !== 'MOVE') return true;
    const revealed = new Set((state.reveal?.results ?? []).map((r) => r.barrel));
    return pad.tags.some((uid) => {
      const item = lookupTag(this.registry, uid);
      return item?.kind !== 'barrel' || !revealed.has(item.value);
    }) || (pad.tags.length === 0 && pad.grams !== null && pad.grams > 0);
  }
}
