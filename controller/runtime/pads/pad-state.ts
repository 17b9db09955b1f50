/**
 * What lies on each station's pad, as the sensors report it: the tags present (in arrival order) and the last
 * settled weight. Pure: the runtime folds sensor events into this state and derives game actions from it.
 *
 * "Settled since the tags changed" matters: a barrel counts as placed only when its tag is read AND the
 * weight has settled with it on the pad, not on a weight that settled before the barrel arrived.
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';

export interface PadState {
  readonly station: StationId;
  /** UIDs of the tags on the pad, in arrival order. */
  readonly tags: readonly string[];
  /** The last settled weight in grams (null until the station reports one). */
  readonly grams: number | null;
  /** True when a weight settled after the last tag change. */
  readonly settledSinceChange: boolean;
}

export type Pads = Readonly<Record<StationId, PadState>>;

export function emptyPad(station: StationId): PadState {
  return { station, tags: [], grams: null, settledSinceChange: false };
}

/** Folds one sensor event into the pads. Button and slap events leave pads unchanged. */
export function updatePads(pads: Pads, event: SensorEvent): Pads {
  const pad = pads[event.station] ?? emptyPad(event.station);
  let next: PadState;
  switch (event.kind) {
    case 'tag-arrived':
      if (pad.tags.includes(event.uid)) return pads;
      next = { ...pad, tags: [...pad.tags, event.uid], settledSinceChange: false };
      break;
    case 'tag-left':
      if (!pad.tags.includes(event.uid)) return pads;
      next = { ...pad, tags: pad.tags.filter((t) => t !== event.uid), settledSinceChange: false };
      break;
    case 'weight-settled':
      next = { ...pad, grams: event.grams, settledSinceChange: true };
      break;
    case 'button-pressed':
    case 'button-released':
    case 'slap':
      return pads;
  }
  return { ...pads, [event.station]: next };
}

/** True when no tag lies on any of the given stations' pads. */
export function padsClear(pads: Pads, stations: readonly StationId[]): boolean {
  return occupiedPads(pads, stations).length === 0;
}

/** The stations among `stations` whose pad still holds a tag, in the order given. */
export function occupiedPads(pads: Pads, stations: readonly StationId[]): StationId[] {
  return stations.filter((s) => (pads[s]?.tags.length ?? 0) > 0);
}
