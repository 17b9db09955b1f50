/**
 * Slap matching (docs/timing.md §3): a station with a piezo "slap" sensor under its pad stamps the moment a
 * card hits the pad in an interrupt, like a button (`SLAP`, ± the interrupt latency); the `TAG+` that follows
 * says which card it was, but only dates its arrival within a poll window (tens of ms). When the two fit
 * together without doubt, the arrival gets the slap's time. Pure: device stamps in, decisions out; the driver
 * (serial-stations.ts) feeds it one station's lines and delivers what it releases.
 *
 * **The landing** is the impact the slap sensor stamps. A tag's arrival window holds the moment the card
 * entered the reader's field, and the impact may come on either side of that: after it for a card dropped
 * onto the pad (it enters the field a few mm above the antenna, then hits), before it for a card slapped down
 * flat (the hand hits first, and the card, detuned by the hand, powers up in the field a moment later:
 * 0.05–3 ms measured, issue 17). So the window is stretched back by `leadUs` for matching.
 *
 * **The rule.** A slap fits a tag when the slap's interval lies inside the tag's arrival window stretched back
 * by the lead, on one station and boot: `[s − sBefore, s + sAfter] ⊆ [t − tBefore − lead, t + tAfter]` in
 * device µs (one clock, no mapping error). A tag gets the slap's time only when
 * - exactly one slap fits its window, and
 * - that slap fits no other new tag's window.
 * Everything else falls back to the tag's own window, and says why (`slapAmbiguous`): two slaps in one
 * window (which one was this card? the other may be a knock, or a second card the reader has not read
 * yet) → `several-slaps`; one slap in the windows of two new tags (two cards landed, the sensor fired once,
 * or twice within its dead time) → `several-tags`, for both. Ambiguity is never resolved by guessing: a
 * wrong µs time would order plays that the windows honestly tie. A slap that no tag claims is a knock on
 * the table: reported (`knock`, for the log) and otherwise ignored.
 *
 * **Waiting for the whole picture.** Whether a second tag shares a window, or a `SLAP` line follows its
 * `TAG+` line, is only known a little later. So on a station that has shown a slap sensor (it sent a
 * `SLAP` this boot) every `TAG+` is held until a line of the station stamped at least `burstUs` after the
 * tag's stamp has arrived: lines leave a station in the order they are queued and a line is queued after its
 * stamp, so by then every `TAG+` of the same poll burst and every `SLAP` stamped before the tag has arrived
 * (`burstUs` bounds the firmware's reads of one burst). The driver pings to get such a line quickly and
 * flushes after a host timeout if none comes. A station that never sent a `SLAP` is not held up at all.
 */
import type { EventTime, SensorEvent, SlapAmbiguity, TagArrival } from '../interface.ts';

type SlapEvent = Extract<SensorEvent, { readonly kind: 'slap' }>;

/** How long to wait, in device µs (defaults in `DEFAULT_SLAP_MATCH_TIMING`). */
export interface SlapMatchTiming {
  /**
   * After a `TAG+`'s stamp, how long until every other `TAG+` of the same poll window and every `SLAP`
   * stamped before it has been queued by the firmware: its longest run of reads that share one window, plus
   * one step (firmware 0.3.0 reads the next new card one poll, ~1–3 ms, later). Default 30 ms.
   */
  readonly burstUs: number;
  /** After a slap's stamp, how long its `TAG+` may take (power-up, the next poll, the read) before it is a knock. */
  readonly slapWaitUs: number;
  /** How long slaps are remembered for matching (a tag window reaching further back falls back). */
  readonly memoryUs: number;
  /**
   * How long before the card enters the reader's field its impact may come (a card slapped down flat: the
   * hand hits first). A slap up to this long before a tag's window still fits it. Absent: the default,
   * `DEFAULT_SLAP_LEAD_US` (optional, so that timing objects built before it existed stay valid).
   */
  readonly leadUs?: number;
}

export const DEFAULT_SLAP_MATCH_TIMING: SlapMatchTiming = {
  burstUs: 30_000,
  slapWaitUs: 200_000,
  memoryUs: 1_000_000,
};

/**
 * The lead (`SlapMatchTiming.leadUs`) when the timing leaves it out, as the driver's does: 5 ms, the 3 ms the
 * independent check saw with margin. Not in `DEFAULT_SLAP_MATCH_TIMING` (nor the config): a property of the
 * physics, not a tuning knob.
 */
export const DEFAULT_SLAP_LEAD_US = 5_000;

/** At most this many slaps are remembered; an older one is forgotten like one past `memoryUs`. */
const MAX_SLAPS = 64;

/** What the matcher decided. */
export type MatchOutput =
  /** A tag arrival to deliver now: with `slap` set when a slap dated it, `slapAmbiguous` when slaps could not. */
  | { readonly kind: 'tag'; readonly event: TagArrival }
  /** A slap no tag claimed within `slapWaitUs`: a knock on the table (reported once; still remembered). */
  | { readonly kind: 'knock'; readonly slap: SlapEvent }
  /**
   * A tag fits a slap that was already given to an earlier tag, released before this one arrived: the
   * ambiguity came too late to take back (`burstUs` is set too short). The new tag falls back.
   */
  | { readonly kind: 'late'; readonly event: TagArrival; readonly slap: SlapEvent; readonly earlier: TagArrival };

interface Span {
  readonly from: number;
  readonly to: number;
}

function spanOf(t: EventTime): Span {
  return { from: t.deviceUs - t.beforeUs, to: t.deviceUs + t.afterUs };
}

/** A tag's window as slaps are matched to it: stretched back by the lead (the impact may precede field entry). */
function matchSpanOf(t: EventTime, leadUs: number): Span {
  return { from: t.deviceUs - t.beforeUs - leadUs, to: t.deviceUs + t.afterUs };
}

function inside(inner: Span, outer: Span): boolean {
  return inner.from >= outer.from && inner.to <= outer.to;
}

interface Slap {
  readonly event: SlapEvent;
  readonly span: Span;
  /** The released tag that got this slap's time. */
  given: TagArrival | undefined;
  /** Released tags whose window holds this slap (whatever they were dated by). */
  readonly fits: TagArrival[];
  knockReported: boolean;
}

/** One station's slap matching (one instance per station; a restart starts a new epoch, see `observe`). */
export class SlapMatcher {
  private readonly timing: SlapMatchTiming;
  private epoch: number | undefined;
  /** This boot has sent a SLAP: its tags wait for the burst. */
  private equipped = false;
  private slaps: Slap[] = [];
  /** The latest stamp of a slap no longer remembered; a tag window reaching back to it cannot be matched. */
  private forgottenUs = -Infinity;
  private held: TagArrival[] = [];
  /** Released tags a slap line arriving now could still fall in (until `burstUs` past their stamp). */
  private recent: TagArrival[] = [];

  constructor(timing: Partial<SlapMatchTiming> = {}) {
    this.timing = { ...DEFAULT_SLAP_MATCH_TIMING, ...timing };
  }

  /** A tag's arrival window as slaps are matched to it (stretched back by the lead). */
  private window(t: EventTime): Span {
    return matchSpanOf(t, this.timing.leadUs ?? DEFAULT_SLAP_LEAD_US);
  }

  /** True while tags wait for the burst to pass (the driver then pings and keeps a fallback timer). */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** True while the arrival of tag `uid` is held. */
  isHeld(uid: string): boolean {
    return this.held.some((t) => t.uid === uid);
  }

  /** The stamp (device µs) from which a line proves that the oldest held tag's burst has passed. */
  get releaseAtUs(): number | undefined {
    const first = this.held[0];
    return first === undefined ? undefined : first.time.deviceUs + this.timing.burstUs;
  }

  /** A `SLAP` line. The station has a slap sensor from now on. */
  slap(event: SlapEvent): MatchOutput[] {
    const out = this.newEpoch(event.time.epoch);
    this.equipped = true;
    const span = spanOf(event.time);
    // A released tag whose window holds this slap (its TAG+ line came first) keeps its time, but the slap
    // now fits it: a second tag claiming the slap is then ambiguous.
    const fits = this.recent.filter((t) => inside(span, this.window(t.time)));
    this.slaps.push({ event, span, given: undefined, fits, knockReported: false });
    this.forget(event.time.deviceUs);
    return [...out, ...this.advance(event.time.deviceUs)];
  }

  /** A `TAG+` line: delivered at once on a station without a slap sensor, else held until its burst has passed. */
  tag(event: TagArrival): MatchOutput[] {
    const out = this.newEpoch(event.time.epoch);
    if (!this.equipped) return [...out, this.release(event)];
    // Earlier held tags may be released by this stamp (seeing this one as a rival); it waits for its own burst.
    this.held.push(event);
    out.push(...this.advance(event.time.deviceUs));
    return out;
  }

  /**
   * Any other line of the station (an event, a ping reply): its stamp proves how far the station has got.
   * Releases held tags whose burst has passed and reports slaps no tag claimed in time.
   */
  observe(epoch: number, deviceUs: number): MatchOutput[] {
    const out = this.newEpoch(epoch);
    return [...out, ...this.advance(deviceUs)];
  }

  /**
   * Releases every held tag now, decided on what has arrived (the station is offline or silent past the
   * driver's timeout, or a `TAG-` of a held tag must not overtake its `TAG+`).
   */
  flush(): MatchOutput[] {
    const held = this.held;
    this.held = [];
    return this.decide(held);
  }

  /** A new epoch (restart): what was held is decided on the old boot's lines; slaps never cross boots. */
  private newEpoch(epoch: number): MatchOutput[] {
    if (this.epoch === epoch) return [];
    const out = this.epoch === undefined ? [] : this.flush();
    this.epoch = epoch;
    this.equipped = false;
    this.slaps = [];
    this.forgottenUs = -Infinity;
    this.recent = [];
    return out;
  }

  private advance(nowUs: number): MatchOutput[] {
    const out: MatchOutput[] = [];
    const due = this.held.filter((t) => nowUs >= t.time.deviceUs + this.timing.burstUs);
    if (due.length > 0) {
      this.held = this.held.filter((t) => !due.includes(t));
      out.push(...this.decide(due));
    }
    this.recent = this.recent.filter((t) => nowUs < t.time.deviceUs + this.timing.burstUs);
    for (const s of this.slaps) {
      if (s.knockReported || s.given !== undefined || s.fits.length > 0) continue;
      if (nowUs < s.event.time.deviceUs + this.timing.slapWaitUs) continue;
      // Still held tags may yet claim it.
      if (this.held.some((t) => inside(s.span, this.window(t.time)))) continue;
      s.knockReported = true;
      out.push({ kind: 'knock', slap: s.event });
    }
    this.forget(nowUs);
    return out;
  }

  private forget(nowUs: number): void {
    const old = (s: Slap | undefined): boolean => s !== undefined && s.event.time.deviceUs < nowUs - this.timing.memoryUs;
    while (this.slaps.length > MAX_SLAPS || old(this.slaps[0])) {
      const gone = this.slaps.shift();
      if (gone !== undefined) this.forgottenUs = Math.max(this.forgottenUs, gone.span.to);
    }
  }

  /** Decides a set of tags released together: each sees the others (and every tag before) as rivals. */
  private decide(tags: readonly TagArrival[]): MatchOutput[] {
    const decisions = tags.map((t) => this.decision(t, tags));
    const out: MatchOutput[] = [];
    for (const d of decisions) {
      if (d.late !== undefined) out.push({ kind: 'late', event: d.event, slap: d.late.slap.event, earlier: d.late.earlier });
      if (d.slap !== undefined) d.slap.given = d.event;
      out.push(this.release(d.event));
    }
    return out;
  }

  private decision(tag: TagArrival, together: readonly TagArrival[]): {
    readonly event: TagArrival;
    readonly slap?: Slap;
    readonly late?: { readonly slap: Slap; readonly earlier: TagArrival };
  } {
    const window = this.window(tag.time);
    const fitting = this.slaps.filter((s) => inside(s.span, window));
    // A window reaching back past what is remembered may hold a forgotten slap: it cannot be matched honestly.
    if (fitting.length > 1 || (fitting.length === 1 && window.from <= this.forgottenUs)) {
      return { event: ambiguous(tag, 'several-slaps') };
    }
    const only = fitting[0];
    if (only === undefined) return { event: tag };
    const rivals = [...only.fits, ...this.held, ...together].filter((t) => t !== tag && inside(only.span, this.window(t.time)));
    if (rivals.length > 0) {
      const earlier = only.given;
      return { event: ambiguous(tag, 'several-tags'), ...(earlier === undefined ? {} : { late: { slap: only, earlier } }) };
    }
    const slap = { ...(only.event.seq === undefined ? {} : { seq: only.event.seq }), time: only.event.time };
    return { event: { ...tag, slap }, slap: only };
  }

  /** Delivers a tag: slaps that fit it remember it, and it stays a rival for slap lines still to come. */
  private release(tag: TagArrival): MatchOutput {
    const window = this.window(tag.time);
    for (const s of this.slaps) if (inside(s.span, window) && !s.fits.includes(tag)) s.fits.push(tag);
    this.recent.push(tag);
    return { kind: 'tag', event: tag };
  }
}

function ambiguous(tag: TagArrival, why: SlapAmbiguity): TagArrival {
  return { ...tag, slapAmbiguous: why };
}
