/**
 * The pad readings published with each station's health (the dashboard's live weight plot and "tag read now"),
 * and the rule that withholds them while they would tell a secret (design principle 2): each game's plug-in
 * says when a seat pad may be secret (`padSecret`: Zapp Zerapp while a barrel could be a choice, Zip-Zap and
 * Killer-21 always, since a card on a seat pad may go back to a hand); the pile station shows the public pile.
 */
import type { PadReading, SensorEvent } from '../hardware/interface.ts';
import { findTablePlugin } from '../runtime/games/tables.ts';
import type { GameId } from '../rules/engine.ts';
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
    // A game the registry does not know is treated as secret: withholding is the safe side.
    const secret = isSeat && (findTablePlugin(game)?.padSecret(pad, state, this.registry) ?? true);
    if (secret) return { grams: null, tag: null, hidden: true };
    const uid = pad.tags.at(-1);
    const item = uid === undefined ? undefined : lookupTag(this.registry, uid);
    const tag = uid === undefined ? null : item ? { kind: item.kind, label: describeItem(item) } : { kind: 'unknown', label: uid };
    return { grams: pad.grams, tag };
  }
}
