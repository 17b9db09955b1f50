/**
 * The cells of the timing benchmark: which two things happen, on one station or two, and how far apart.
 */

/** Press separations measured, µs: 20 µs to 20 ms, and 50 ms where tag-only stations stop tying. */
export const BENCH_SEPARATIONS_US: readonly number[] = [20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000];

/** Tags resting on a pad while the pair happens (each pad draws one): empty, a few, a full Zip-Zap pile. */
export const RESTING_TAGS: readonly number[] = [0, 4, 13];

export type PairKind = 'button-tag' | 'tag-tag' | 'button-button' | 'card-tag' | 'card-slap';

export interface PairKindInfo {
  readonly kind: PairKind;
  /** Both on one station (compared by device time) or on two (by mapped time). */
  readonly sameStation: boolean;
  /** The stations have slap sensors: a card is dated by its `SLAP`. */
  readonly slap: boolean;
  /** What the two events are. */
  readonly first: 'button' | 'card';
  readonly second: 'button' | 'card';
  readonly label: string;
}

export const PAIR_KINDS: readonly PairKindInfo[] = [
  { kind: 'button-tag', sameStation: true, slap: false, first: 'button', second: 'card', label: 'same station: button vs card (tag only), either first' },
  { kind: 'tag-tag', sameStation: true, slap: false, first: 'card', second: 'card', label: 'same station: card vs card (tag only)' },
  { kind: 'button-button', sameStation: false, slap: false, first: 'button', second: 'button', label: 'across stations: button vs button' },
  { kind: 'card-tag', sameStation: false, slap: false, first: 'card', second: 'card', label: 'across stations: card vs card, tag-only stations (the Zip-Zap race)' },
  { kind: 'card-slap', sameStation: false, slap: true, first: 'card', second: 'card', label: 'across stations: card vs card, slap-sensor stations (the Zip-Zap race)' },
];

export function pairKindInfo(kind: PairKind): PairKindInfo {
  const info = PAIR_KINDS.find((k) => k.kind === kind);
  if (info === undefined) throw new RangeError(`unknown pair kind ${kind}`);
  return info;
}
