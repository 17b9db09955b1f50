/**
 * Dating a card by its slap: on a station with a slap sensor, a `TAG+` names what landed and the `SLAP`
 * before it says when. The benchmark uses the matcher through this small interface so that the controller's
 * own matcher can take its place.
 *
 * `matchSlapToTag` is the rule of the controller's matcher (the timing branch's
 * controller/hardware/serial/slap-matching.ts, not yet on this branch): a slap dates a tag when its interval
 * lies **inside** the tag's arrival interval, on one station and boot (device µs, one clock), and it is the
 * only slap that does; otherwise the tag keeps its own interval — a tie rather than a guess. The production
 * matcher also refuses a slap that fits two new tags' windows, and holds each tag until its poll burst has
 * passed; neither changes a benchmark cell (one card per pad per pair, and the order of lines is kept).
 */
import type { TimedEvent } from '../arbitration.ts';

/** Given a `TAG+` and the station's recent slaps, the event that dates the landing, or undefined (the tag's own). */
export type SlapMatcher = <E extends TimedEvent>(tag: E, slaps: readonly E[]) => E | undefined;

const from = (e: TimedEvent): number => e.deviceUs - (e.beforeUs ?? 0);
const to = (e: TimedEvent): number => e.deviceUs + (e.afterUs ?? 0);

/** The one slap whose interval lies inside the tag's, on its station and boot; undefined for none or several. */
export const matchSlapToTag: SlapMatcher = (tag, slaps) => {
  const fitting = slaps.filter((s) => s.station === tag.station && s.epoch === tag.epoch
    && from(s) >= from(tag) && to(s) <= to(tag));
  return fitting.length === 1 ? fitting[0] : undefined;
};
