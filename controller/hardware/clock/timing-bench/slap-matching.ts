/**
 * Dating a card by its slap: on a station with a slap sensor, a `TAG+` names what landed and the `SLAP`
 * before it says when. The benchmark uses the matcher through this small interface so the controller's own
 * matcher (docs/timing.md §3, the timing branch) can take its place once it exists; until then
 * `matchSlapToTag` below is the rule the benchmark judges.
 */
import type { TimedEvent } from '../arbitration.ts';

/** Given a `TAG+` and the station's recent slaps, the event that dates the landing, or undefined (the tag's own). */
export type SlapMatcher = <E extends TimedEvent>(
  tag: E, slaps: readonly E[], options?: { readonly deviceResolutionUs?: number },
) => E | undefined;

/**
 * The slap whose interval overlaps the tag's arrival interval (same station and boot, device time), when there
 * is exactly one; otherwise none: no slap (the sensor missed it) or several (two cards in one window) leave the
 * card with the tag's own, wider interval — a tie rather than a guess.
 */
export const matchSlapToTag: SlapMatcher = (tag, slaps, options = {}) => {
  const res = options.deviceResolutionUs ?? 4;
  const tagFrom = tag.deviceUs - (tag.beforeUs ?? 0) - res;
  const tagTo = tag.deviceUs + (tag.afterUs ?? 0) + res;
  const hits = slaps.filter((s) => s.station === tag.station && s.epoch === tag.epoch
    && s.deviceUs + (s.afterUs ?? 0) + res >= tagFrom && s.deviceUs - (s.beforeUs ?? 0) - res <= tagTo);
  return hits.length === 1 ? hits[0] : undefined;
};
