/**
 * The pad readings published with each station's health (the dashboard's live weight plot and "tag read now"),
 * and the rule that withholds them while they would tell a secret (design principle 2): each game's plug-in
 * says when a seat pad may be secret (`padSecret`: Zapp Zerapp while a barrel could be a choice, Zip-Zap and
 * Killer-21 always, since a card on a seat pad may go back to a hand) and which cards the public pile holds
 * (`faceUp`); the one public rule decides (rules/common/spectator.ts).
 */
import type { PadReading, SensorEvent } from '../hardware/interface.ts';
import { findTablePlugin } from '../runtime/games/tables.ts';
import type { GameId } from '../rules/engine.ts';
import { padReadingIsPublic, type PadPlace } from '../rules/common/spectator.ts';
import { describeItem, type Item } from '../runtime/registry/items.ts';
import { lookupTag, type TagRegistry } from '../runtime/registry/tag-registry.ts';

const NOTHING: ReadonlySet<string> = new Set();

/** The card id of a card item (a Zip-Zap card or ZAP, a Killer-21 card), else null. */
function cardOf(item: Item): string | null {
  return item.kind === 'card' || item.kind === 'zap' || item.kind === 'k21' ? item.card : null;
}

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

  /**
   * The reading to publish for a station, withheld when the one public rule says so (rules/common/spectator.ts):
   * a seat pad while the game says it may hold a secret, a card on the pile unless the public pile holds it.
   */
  reading(station: string, game: GameId, state: unknown, place: PadPlace): PadReading | undefined {
    const pad = this.pads.get(station);
    if (!pad) return undefined;
    const plugin = findTablePlugin(game);
    const uid = pad.tags.at(-1);
    const item = uid === undefined ? undefined : lookupTag(this.registry, uid);
    const card = item === undefined ? null : cardOf(item);
    // A game the registry does not know is treated as secret: withholding is the safe side.
    const shown = plugin !== undefined && padReadingIsPublic({
      place, card,
      seatMayBeSecret: place === 'seat' && plugin.padSecret(pad, state, this.registry),
      faceUp: place === 'pile' && card !== null ? new Set(plugin.faceUp(state)) : NOTHING,
    });
    if (!shown) return { grams: null, tag: null, hidden: true };
    const tag = uid === undefined ? null : item ? { kind: item.kind, label: describeItem(item) } : { kind: 'unknown', label: uid };
    return { grams: pad.grams, tag };
  }
}
