/**
 * The seat station's firmware as the benchmark simulates it: when an edge is stamped, when a button line is
 * sent, how the RFID reader's polls find a new tag (stamp and window of `TAG+`), when a slap is stamped, and
 * how long the main loop keeps a line or a ping waiting. Host times (µs) are the simulation's true time.
 *
 * The figures are the firmware's own (hardware/protocol.md *RFID timing*, firmware/src/button.h); see
 * `DEFAULT_SEAT_FIRMWARE` for where each comes from. Tags are read by **fast polling** (firmware 0.3): with
 * the field kept on, a REQA — which only a newly arrived tag answers: tags already read are halted — runs
 * between two presence checks of the tags resting on the pad, one resting tag per pass. A `TAG+` is stamped
 * at the REQA that got the answer, and its window reaches back to the last REQA before it that found nothing.
 */
import type { SeededRandom } from '../seeded-random.ts';

export type Range = readonly [number, number];

export interface SeatFirmwareModel {
  /** Interrupt entry and pin-change decoding: the ISR reads `micros()` this long after the edge (uniform), µs. */
  readonly isrEntryUs: Range;
  /** Longest stretch with interrupts off: the HX711 read clocks 25 bits with interrupts off, µs. */
  readonly interruptsOffUs: number;
  /** How often that stretch comes: once per HX711 sample, µs. */
  readonly interruptsOffPeriodUs: number;
  /** Chance that another interrupt (serial, timer 0) runs first, and its longest duration (µs). */
  readonly otherIsrChance: number;
  readonly otherIsrMaxUs: number;
  /** Contact bounce of the arcade micro-switch after the first edge, µs. */
  readonly bounceUs: Range;
  /** The debouncer's quiet time: a change is accepted, and its line queued, this long after the last edge. */
  readonly debounceQuietUs: number;
  /** A REQA that no new tag answers: the frame and the reader's 1 ms timeout, µs. */
  readonly emptyPollUs: Range;
  /** A REQA that a new tag answers, with anticollision, SELECT (7-byte UID: two cascade levels) and HLTA, µs. */
  readonly readPollUs: Range;
  /** One presence check of a resting tag, done between two REQAs, µs. */
  readonly presenceCheckUs: Range;
  /** The rest of one loop pass (HX711, serial lines, lamp), µs. */
  readonly otherWorkUs: Range;
  /** Longest time a tag needs after entering the field before it answers: its power-up and reset, µs. */
  readonly tagPowerUpMaxUs: number;
  /** HX711 sample period (10 samples/s), µs. */
  readonly scaleSampleUs: number;
  /** Samples the stability filter needs in a row before `W … S`. */
  readonly scaleSettleSamples: number;
}

/**
 * Provisional figures for firmware 0.3's fast polling. The REQA and read times are the measured ones of
 * hardware/protocol.md *RFID timing* (empty REQA 1.3 ms; one step reading a 7-byte UID 6.4–7.1 ms); the
 * presence check and the resulting window are the firmware branch's design goal (window ≤ 8 ms with 13
 * tags resting) until its measured figures land. Edges: ISR entry 3–6 µs, the HX711's 60 µs with
 * interrupts off (event-interval.ts); bounce 1–3 ms and 5 ms quiet (button.h). Power-up: ISO 14443's 5 ms.
 */
export const DEFAULT_SEAT_FIRMWARE: SeatFirmwareModel = {
  isrEntryUs: [3, 6],
  interruptsOffUs: 60,
  interruptsOffPeriodUs: 100_000,
  otherIsrChance: 0.02,
  otherIsrMaxUs: 10,
  bounceUs: [1000, 3000],
  debounceQuietUs: 5000,
  emptyPollUs: [1250, 1350],
  readPollUs: [6400, 7100],
  presenceCheckUs: [2500, 4500],
  otherWorkUs: [50, 300],
  tagPowerUpMaxUs: 5000,
  scaleSampleUs: 100_000,
  scaleSettleSamples: 5,
};

const draw = (rng: SeededRandom, [lo, hi]: Range): number => rng.uniform(lo, hi);

/**
 * How long after an edge the ISR reads `micros()`, µs: its entry, plus the rest of an interrupts-off stretch
 * (HX711 read) if the edge fell into one, plus another interrupt that ran first.
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
 * The main loop's steps over an episode (a REQA, a presence check, other work), back to back: step k runs
 * from `bounds[k]` to `bounds[k + 1]`. A line queued in a step leaves when the step ends.
 */
export type LoopSteps = readonly number[];

/**
 * How long a line or ping queued at a random moment waits for the step in progress (steady state, no new
 * tag): the loop is a REQA, then, with tags resting, one presence check, then the rest of the pass.
 */
export function loopWaitUs(rng: SeededRandom, m: SeatFirmwareModel, resting: number): number {
  const poll = draw(rng, m.emptyPollUs);
  const check = resting > 0 ? draw(rng, m.presenceCheckUs) : 0;
  const other = draw(rng, m.otherWorkUs);
  // The moment falls into a step with a chance proportional to its length; it waits for the rest of it.
  const x = rng.uniform(0, poll + check + other);
  if (x < poll) return poll - x;
  if (x < poll + check) return poll + check - x;
  return poll + check + other - x;
}

/** A new tag on the pad: when it can first answer a REQA (entered the field + its power-up). */
export interface NewTag {
  readonly readyUs: number;
}

/** How the reader saw a new tag. */
export interface TagRead {
  /** The REQA that read it: `TAG+`'s stamp is `micros()` then. */
  readonly pollUs: number;
  /** The last REQA before it that found no new tag: the start of `TAG+`'s window. */
  readonly lastEmptyPollUs: number;
  /** When the read finished and the `TAG+` line was queued. */
  readonly queuedUs: number;
}

/** The reader's poll loop over an episode: the steps (for lines waiting on them) and the reads of new tags. */
export interface PollEpisode {
  readonly steps: LoopSteps;
  /** Same order as the tags given. */
  readonly reads: readonly TagRead[];
}

/**
 * Runs the poll loop from `startUs` (a random point of the loop) until every tag in `tags` is read and the
 * loop is past `untilUs`. `resting` tags lie on the pad at the start; each tag read joins them. Two tags
 * answering one REQA: anticollision reads one (by UID bits: either), the other answers the next REQA; both
 * windows reach back to the last REQA that found nothing.
 */
export function runPollEpisode(
  rng: SeededRandom, m: SeatFirmwareModel, startUs: number, resting: number, tags: readonly NewTag[], untilUs: number,
): PollEpisode {
  const steps: number[] = [startUs];
  const reads: (TagRead | undefined)[] = tags.map(() => undefined);
  let left = tags.length;
  let t = startUs;
  // The REQA before the start found nothing (the pad's new tags are still to come).
  let lastEmpty = startUs - draw(rng, m.emptyPollUs) - draw(rng, m.otherWorkUs);
  if (resting > 0) lastEmpty -= draw(rng, m.presenceCheckUs);
  let onPad = resting;
  const step = (us: number): void => {
    t += us;
    steps.push(t);
  };
  const answering: number[] = [];
  while (left > 0 || t < untilUs) {
    const poll = t;
    answering.length = 0;
    for (let i = 0; i < tags.length; i++) if (reads[i] === undefined && (tags[i] as NewTag).readyUs <= poll) answering.push(i);
    if (answering.length > 0) {
      const i = answering[rng.int(answering.length)] as number;
      step(draw(rng, m.readPollUs));
      reads[i] = { pollUs: poll, lastEmptyPollUs: lastEmpty, queuedUs: t };
      left--;
      onPad++;
    } else {
      step(draw(rng, m.emptyPollUs));
      lastEmpty = poll;
    }
    if (onPad > 0) step(draw(rng, m.presenceCheckUs));
    step(draw(rng, m.otherWorkUs));
  }
  return { steps, reads: reads as TagRead[] };
}

/** When a line queued at `queuedUs` leaves: at the end of the loop step in progress; undefined outside the steps. */
export function leavesAtUs(steps: LoopSteps, queuedUs: number): number | undefined {
  if (steps.length < 2 || queuedUs < (steps[0] as number) || queuedUs >= (steps.at(-1) as number)) return undefined;
  // The first bound after queuedUs.
  let lo = 1;
  let hi = steps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((steps[mid] as number) > queuedUs) hi = mid;
    else lo = mid + 1;
  }
  return steps[lo];
}
