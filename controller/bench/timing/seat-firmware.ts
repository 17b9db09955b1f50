/**
 * The seat station's firmware as the benchmark simulates it: when an edge is stamped, when a button line is
 * sent, how the RFID reader's polls find a new tag (stamp and window of `TAG+`), when a slap is stamped, and
 * how long the main loop keeps a line or a ping waiting. Host times (µs) are the simulation's true time.
 *
 * Firmware 0.3.0 (hardware/protocol.md *Events* and *RFID timing*, measured in the emulator): the field stays
 * on and the reader works in **steps**, one per loop pass. A step is a poll (REQA), which only a tag that has
 * just entered the field and powered up answers (read ones are halted); a new tag is then read (anticollision,
 * SELECT) in the same step; if nobody answered, one presence check of a resting tag follows, round robin, each
 * tag at most every 10 ms. A `TAG+` is stamped at the poll that got the answer, and its window reaches back to
 * the last poll nobody answered. A step blocks the loop; between steps the loop handles lines and pings.
 */
import type { SeededRandom } from '../../kernel/random.ts';

export type Range = readonly [number, number];

export interface SeatFirmwareModel {
  /** Interrupt entry and pin-change decoding: the ISR reads `micros()` this long after the edge (uniform), µs. */
  readonly isrEntryUs: Range;
  /** Stretches with interrupts off (one HX711 clock pulse each), µs, and how often one comes, µs. */
  readonly interruptsOffUs: number;
  readonly interruptsOffPeriodUs: number;
  /** Chance that another interrupt (serial, timer 0) runs first, and its longest duration (µs). */
  readonly otherIsrChance: number;
  readonly otherIsrMaxUs: number;
  /** Contact bounce of the arcade micro-switch after the first edge, µs. */
  readonly bounceUs: Range;
  /** The debouncer's quiet time: a change is accepted, and its line queued, this long after the last edge. */
  readonly debounceQuietUs: number;
  /** A poll nobody answers: REQA and the reader's short timeout, µs. */
  readonly emptyPollUs: Range;
  /** A poll that one new tag answers, with its read (anticollision, SELECT of a 7-byte UID) and HLTA, µs. */
  readonly readPollUs: Range;
  /** The same when several new tags answer at once (collisions resolved bit by bit), µs. */
  readonly collisionReadUs: Range;
  /** One presence check of a resting tag (WUPA, SELECT, ANTICOLLISION at the last level), µs. */
  readonly presenceCheckUs: Range;
  /** A resting tag is checked at most this often, µs. */
  readonly checkIntervalUs: number;
  /** The loop's own work between two steps (the loop is free: lines and pings go out), µs. */
  readonly betweenStepsUs: Range;
  /** Polls come no more often than this (drawn per pass), µs: a pass with nothing to check waits, free. */
  readonly minPollIntervalUs: Range;
  /** What a tag needs in the field before it answers: its power-up (ISO/IEC 14443-3 bounds it by 5 ms), µs. */
  readonly tagPowerUpUs: Range;
  /** HX711 sample period (10 samples/s), µs. */
  readonly scaleSampleUs: number;
  /** Samples the stability filter needs in a row before `W … S`. */
  readonly scaleSettleSamples: number;
}

/**
 * Firmware 0.3.0 with 7-byte UIDs (NTAG), from hardware/protocol.md *RFID timing* (measured in the emulator):
 * empty poll 0.3 ms; with cards resting a step of 2.94 ms median (poll + check); the read of one new card
 * 5.3 ms, several at once 5.3–8.7 ms per read; each tag checked at most every 10 ms. The pass lengths are
 * set so that the windows match the measured ones: median 1.02 / max 1.14 ms on an empty pad, median
 * 3.02 / max 3.16 ms with 4 or 13 cards resting (protocol.md's "a poll every" figures are 0.1–0.2 ms longer). Edges: stamped 0–12 µs (buttons) / 4–8 µs (slaps) after the edge; bounce 1–3 ms
 * and 5 ms of quiet (firmware/src/button.h). Power-up: 1–5 ms, as the firmware's measurements drew it.
 */
export const DEFAULT_SEAT_FIRMWARE: SeatFirmwareModel = {
  isrEntryUs: [3, 8],
  interruptsOffUs: 2,
  interruptsOffPeriodUs: 4000,
  otherIsrChance: 0.02,
  otherIsrMaxUs: 10,
  bounceUs: [1000, 3000],
  debounceQuietUs: 5000,
  emptyPollUs: [280, 320],
  readPollUs: [5000, 5300],
  collisionReadUs: [5300, 8700],
  presenceCheckUs: [2450, 2600],
  checkIntervalUs: 10_000,
  betweenStepsUs: [200, 300],
  minPollIntervalUs: [1000, 1140],
  tagPowerUpUs: [1000, 5000],
  scaleSampleUs: 100_000,
  scaleSettleSamples: 5,
};

const draw = (rng: SeededRandom, [lo, hi]: Range): number => rng.uniform(lo, hi);

/**
 * How long after an edge the ISR reads `micros()`, µs: its entry, plus the rest of an interrupts-off stretch
 * if the edge fell into one, plus another interrupt that ran first.
 */
export function edgeStampDelayUs(rng: SeededRandom, m: SeatFirmwareModel): number {
  let delay = draw(rng, m.isrEntryUs);
  if (rng.chance(m.interruptsOffUs / m.interruptsOffPeriodUs)) delay += rng.uniform(0, m.interruptsOffUs);
  if (rng.chance(m.otherIsrChance)) delay += rng.uniform(0, m.otherIsrMaxUs);
  return delay;
}

/** When a button's line is queued: after its bounce, once the line has been quiet for the debounce time. */
export function buttonLineQueuedUs(rng: SeededRandom, m: SeatFirmwareModel, edgeUs: number): number {
  return edgeUs + draw(rng, m.bounceUs) + m.debounceQuietUs;
}

/**
 * The reader's steps over an episode, the spans in which it blocks the loop: step k runs from `spans[2k]` to
 * `spans[2k + 1]`, sorted. A line queued inside a step leaves when the step ends; between steps, at once.
 */
export type LoopSteps = readonly number[];

/**
 * How long a line or ping queued at a random moment waits for the step in progress (steady state, no new
 * tag): a pass is a poll, a presence check when a resting tag is due, and the free rest of the pass.
 */
export function loopWaitUs(rng: SeededRandom, m: SeatFirmwareModel, resting: number): number {
  const poll = draw(rng, m.emptyPollUs);
  const between = draw(rng, m.betweenStepsUs);
  // With few tags resting, not every pass has one due (each is checked at most every checkIntervalUs).
  const passWithCheck = poll + draw(rng, m.presenceCheckUs) + between;
  const checkShare = Math.min(1, (resting * passWithCheck) / m.checkIntervalUs);
  const step = rng.chance(checkShare) ? passWithCheck - between : poll;
  const pass = Math.max(step + between, draw(rng, m.minPollIntervalUs));
  const x = rng.uniform(0, pass);
  return x < step ? step - x : 0;
}

/** A new tag on the pad: when it can first answer a poll (entered the field + its power-up). */
export interface NewTag {
  readonly readyUs: number;
}

/** How the reader saw a new tag. */
export interface TagRead {
  /** The poll that read it: `TAG+`'s stamp is `micros()` then. */
  readonly pollUs: number;
  /** The last poll before it that nobody answered: the start of `TAG+`'s window. */
  readonly lastEmptyPollUs: number;
  /** When the read finished and the `TAG+` line was queued. */
  readonly queuedUs: number;
}

/** The reader over an episode: the steps (for lines waiting on them) and the reads of new tags. */
export interface PollEpisode {
  readonly steps: LoopSteps;
  /** Same order as the tags given. */
  readonly reads: readonly TagRead[];
}

/**
 * Runs the reader from `startUs` (a random point of its loop) until every tag in `tags` is read and the loop
 * is past `untilUs`. `resting` tags lie on the pad at the start; each tag read joins them. Several tags
 * answering one poll: one is read (by UID bits: any), the others answer the next polls; their windows all
 * reach back to the last poll nobody answered.
 */
export function runPollEpisode(
  rng: SeededRandom, m: SeatFirmwareModel, startUs: number, resting: number, tags: readonly NewTag[], untilUs: number,
): PollEpisode {
  const spans: number[] = [];
  const reads: (TagRead | undefined)[] = tags.map(() => undefined);
  // When each resting tag was last checked: the round robin is somewhere in its round.
  const round = Math.max(m.checkIntervalUs, resting * 3300);
  const lastCheck: number[] = Array.from({ length: resting }, () => startUs - rng.uniform(0, round));
  let left = tags.length;
  let t = startUs;
  let lastEmpty = startUs - m.minPollIntervalUs[1];
  const block = (us: number): void => {
    spans.push(t, t + us);
    t += us;
  };
  const answering: number[] = [];
  while (left > 0 || t < untilUs) {
    const poll = t;
    answering.length = 0;
    for (let i = 0; i < tags.length; i++) if (reads[i] === undefined && (tags[i] as NewTag).readyUs <= poll) answering.push(i);
    if (answering.length > 0) {
      const i = answering[rng.int(answering.length)] as number;
      block(draw(rng, answering.length > 1 ? m.collisionReadUs : m.readPollUs));
      reads[i] = { pollUs: poll, lastEmptyPollUs: lastEmpty, queuedUs: t };
      left--;
      lastCheck.push(t);
    } else {
      lastEmpty = poll;
      const pollUs = draw(rng, m.emptyPollUs);
      // Then one presence check of the resting tag checked longest ago, if it is due.
      let oldest = -1;
      for (let k = 0; k < lastCheck.length; k++) {
        if (oldest < 0 || (lastCheck[k] as number) < (lastCheck[oldest] as number)) oldest = k;
      }
      const check = oldest >= 0 && poll - (lastCheck[oldest] as number) >= m.checkIntervalUs ? draw(rng, m.presenceCheckUs) : 0;
      block(pollUs + check);
      if (check > 0) lastCheck[oldest] = t;
    }
    t = Math.max(t + draw(rng, m.betweenStepsUs), poll + draw(rng, m.minPollIntervalUs));
  }
  return { steps: spans, reads: reads as TagRead[] };
}

/** When a line queued at `queuedUs` leaves: at the end of the step in progress, else at once. */
export function leavesAtUs(steps: LoopSteps, queuedUs: number): number {
  // The first span start after queuedUs; the step before it (if any) may hold queuedUs.
  let lo = 0;
  let hi = steps.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((steps[2 * mid] as number) > queuedUs) hi = mid;
    else lo = mid + 1;
  }
  const k = lo - 1;
  return k >= 0 && queuedUs < (steps[2 * k + 1] as number) ? (steps[2 * k + 1] as number) : queuedUs;
}
