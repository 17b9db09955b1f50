/**
 * The physical world of the timing benchmark, the same for both link models: stations (resonators, boots),
 * the pairs of happenings at known separations, and what each station's firmware makes of them — stamps,
 * tag windows, when each line leaves the station. Links and the controller come later (link-run.ts).
 */
import { SeededRandom } from '../../kernel/random.ts';
import {
  bootAt, deviceElapsedUs, planBoots, randomResonator, simulatedMicros, type ResonatorModel, type SimulatedBoot,
} from '../sim/simulated-clock.ts';
import { PAIR_KINDS, RESTING_TAGS, pairKindInfo, type PairKind } from './pair-kinds.ts';
import {
  buttonLineQueuedUs, edgeStampDelayUs, leavesAtUs, loopWaitUs, runPollEpisode,
  type LoopSteps, type NewTag, type SeatFirmwareModel,
} from './seat-firmware.ts';

export type SensorSource = 'button' | 'slap' | 'tag';

/** One happening as a station stamped it. */
export interface SensorRecord {
  readonly id: number;
  readonly station: number;
  readonly source: SensorSource;
  readonly boot: SimulatedBoot;
  /** Host time of the physical happening: the button's first edge, the impact, the card landing. */
  readonly trueUs: number;
  /** Host time at which the firmware read `micros()` for the stamp (the ISR, or the REQA that read the tag). */
  readonly stampUs: number;
  /** The stamp: `micros()`, 4 µs steps, wrapped. */
  readonly raw: number;
  /** The happening's exact device time minus the stamp's (device µs): where it lies around `raw`. */
  readonly trueMinusStampDeviceUs: number;
  /** `TAG+` only: the window (device µs) back to the last REQA that found no new tag, and the UID. */
  readonly windowUs: number;
  readonly uid: string;
  /** `TAG+` only: another new tag was read inside this one's window (two cards at once widen both windows). */
  readonly sharedWindow: boolean;
  /** When our firmware's line leaves the main loop for the wire. */
  readonly leavesUs: number;
  /**
   * When a host-stamping competitor's line would leave: edges sent straight from the interrupt (no debounce
   * wait, no loop wait), tags when read (as ours).
   */
  readonly competitorLeavesUs: number;
  /** Tags resting on the pad. */
  readonly resting: number;
}

/** One side of a pair: what it is dated by (a button, a card's `TAG+`), and on slap stations its `SLAP`. */
export interface PairEvent {
  readonly primary: SensorRecord;
  readonly slap: SensorRecord | undefined;
  readonly trueUs: number;
}

export interface PlannedPair {
  readonly kind: PairKind;
  readonly separationUs: number;
  /** The truly earlier one first; undefined when a station was restarting (the pair is not evaluated). */
  readonly events: readonly [PairEvent, PairEvent] | undefined;
}

/** A weight line: traffic on the station's wire (a card landing moves the scale). */
export interface WeightLine {
  readonly readyUs: number;
  readonly boot: SimulatedBoot;
  readonly raw: number;
  readonly grams: number;
  readonly stable: boolean;
}

interface Episode {
  readonly startUs: number;
  readonly endUs: number;
  readonly steps: LoopSteps;
  readonly resting: number;
}

export interface StationWorld {
  readonly resonator: ResonatorModel;
  readonly boots: readonly SimulatedBoot[];
  readonly weights: WeightLine[];
  readonly episodes: Episode[];
}

export interface World {
  readonly stations: readonly StationWorld[];
  readonly pairs: readonly PlannedPair[];
  readonly records: readonly SensorRecord[];
  readonly endUs: number;
  readonly firmware: SeatFirmwareModel;
}

export interface WorldOptions {
  readonly pairs: number;
  readonly stations: number;
  readonly meanRestartIntervalUs: number;
  readonly firmware: SeatFirmwareModel;
  /** Chance that a slap sensor misses a landing (the card then has only its tag's interval). */
  readonly slapMissChance: number;
  /** Which kinds to plan (default all). */
  readonly kinds: readonly PairKind[];
  readonly separationsUs: readonly number[];
}

const WARM_UP_US = 3_000_000;
/** Mean gap between two pairs' start (µs); a station takes part in one pair at a time. */
const PAIR_SPACING_US = 40_000;
/** A station is free again this long after its pair's last happening (its reads and lines are done). */
const STATION_BUSY_US = 150_000;
const CARD_GRAMS = 1.8;

/** The exact (unquantised, unwrapped) device time at host time `hostUs` during `boot`. */
function exactDeviceUs(r: ResonatorModel, boot: SimulatedBoot, hostUs: number): number {
  return boot.microsAtUp + deviceElapsedUs(r, boot.upUs, hostUs);
}

function randomUid(rng: SeededRandom): string {
  let uid = '04';
  for (let i = 0; i < 6; i++) uid += rng.int(256).toString(16).toUpperCase().padStart(2, '0');
  return uid;
}

/** What one station does during one pair: edges, landings, and its poll loop over them. */
interface StationHappenings {
  readonly buttons: number[];
  readonly cards: number[];
  readonly slap: boolean;
}

class WorldBuilder {
  readonly records: SensorRecord[] = [];

  constructor(private readonly rng: SeededRandom, private readonly o: WorldOptions, private readonly stations: StationWorld[]) {}

  /**
   * A record of what a station stamped. Built as one object literal: records are many, and object spread
   * makes V8 build them slowly.
   */
  private record(
    station: number, boot: SimulatedBoot, resting: number, source: SensorSource, trueUs: number, stampUs: number,
    leavesUs: number, competitorLeavesUs: number,
    tag?: { readonly lastEmptyPollUs: number; readonly uid: string; readonly shared: boolean },
  ): SensorRecord {
    const st = this.stations[station] as StationWorld;
    const raw = simulatedMicros(st.resonator, boot, stampUs);
    const quantised = Math.floor(exactDeviceUs(st.resonator, boot, stampUs) / 4) * 4;
    const windowUs = tag === undefined ? 0 : (raw - simulatedMicros(st.resonator, boot, tag.lastEmptyPollUs) + 2 ** 32) % 2 ** 32;
    const rec: SensorRecord = {
      id: this.records.length, station, source, boot, trueUs, stampUs, raw,
      trueMinusStampDeviceUs: exactDeviceUs(st.resonator, boot, trueUs) - quantised,
      windowUs, uid: tag?.uid ?? '', sharedWindow: tag?.shared ?? false, leavesUs, competitorLeavesUs, resting,
    };
    this.records.push(rec);
    return rec;
  }

  /** Simulates one station's part of a pair; returns its pair events in the order asked, or undefined if down. */
  happen(station: number, h: StationHappenings): { buttons: PairEvent[]; cards: PairEvent[] } | undefined {
    const st = this.stations[station] as StationWorld;
    const m = this.o.firmware;
    const rng = this.rng;
    const all = h.buttons.concat(h.cards);
    const first = Math.min(...all);
    const last = Math.max(...all);
    const startUs = first - rng.uniform(2000, 20_000);
    const boot = bootAt(st.boots, startUs);
    // The pair must lie in one boot, with room for the reads and the debounce.
    if (boot === undefined || boot !== bootAt(st.boots, last + 100_000)) return undefined;
    const resting = RESTING_TAGS[rng.int(RESTING_TAGS.length)] as number;
    const tags: NewTag[] = h.cards.map((t) => ({ readyUs: t + rng.uniform(m.tagPowerUpUs[0], m.tagPowerUpUs[1]) }));
    const edges = h.buttons.map((t) => ({ t, stampUs: t + edgeStampDelayUs(rng, m), queuedUs: buttonLineQueuedUs(rng, m, t) }));
    const slaps = h.slap
      ? h.cards.map((t) => (rng.chance(this.o.slapMissChance) ? undefined : { t, stampUs: t + edgeStampDelayUs(rng, m) }))
      : [];
    const until = Math.max(last, ...edges.map((e) => e.queuedUs)) + 1000;
    const episode = runPollEpisode(rng, m, startUs, resting, tags, until);
    const endUs = episode.steps.at(-1) ?? until;
    st.episodes.push({ startUs, endUs, steps: episode.steps, resting: resting + h.cards.length });
    // Every line of the pair is queued inside the episode (it runs past the last of them).
    const leaves = (queuedUs: number): number => leavesAtUs(episode.steps, queuedUs);
    const buttons = edges.map((e): PairEvent => ({
      primary: this.record(station, boot, resting, 'button', e.t, e.stampUs, leaves(e.queuedUs), e.stampUs),
      slap: undefined, trueUs: e.t,
    }));
    const cards = h.cards.map((t, i): PairEvent => {
      const read = episode.reads[i];
      if (read === undefined) throw new Error('runPollEpisode left a tag unread');
      const s = slaps[i];
      const slap = s === undefined ? undefined : this.record(station, boot, resting, 'slap', t, s.stampUs, leaves(s.stampUs), s.stampUs);
      const shared = episode.reads.some((o) => o !== read && o.pollUs > read.lastEmptyPollUs && o.pollUs < read.pollUs);
      const primary = this.record(station, boot, resting, 'tag', t, read.pollUs, read.queuedUs, read.queuedUs, {
        lastEmptyPollUs: read.lastEmptyPollUs, uid: randomUid(rng), shared,
      });
      this.weigh(st, boot, t, resting + i + 1);
      return { primary, slap, trueUs: t };
    });
    return { buttons, cards };
  }

  /** The scale's lines after a card lands: `W … U` at the next sample, `W … S` once the filter has settled. */
  private weigh(st: StationWorld, boot: SimulatedBoot, landedUs: number, cardsOnPad: number): void {
    const m = this.o.firmware;
    const next = Math.ceil(landedUs / m.scaleSampleUs) * m.scaleSampleUs + this.rng.uniform(0, 2000);
    const settled = next + m.scaleSettleSamples * m.scaleSampleUs;
    const grams = Math.round(cardsOnPad * CARD_GRAMS * 10) / 10;
    for (const [at, stable] of [[next, false], [settled, true]] as const) {
      if (bootAt(st.boots, at) !== boot) continue;
      st.weights.push({
        readyUs: at + loopWaitUs(this.rng, m, cardsOnPad), boot, raw: simulatedMicros(st.resonator, boot, at), grams, stable,
      });
    }
  }
}

/** Builds the world for a seed: every pair planned, simulated on its stations, and its records. */
export function buildWorld(seed: string, o: WorldOptions): World {
  const rng = new SeededRandom(`bench-timing:world:${seed}`);
  const plan: { kind: PairKind; separationUs: number }[] = [];
  for (const kind of o.kinds) {
    for (const separationUs of o.separationsUs) {
      for (let i = 0; i < o.pairs; i++) plan.push({ kind, separationUs });
    }
  }
  // Interleave the cells over the run so every cell sees the same mix of drift, restarts and wraps.
  for (let i = plan.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [plan[i], plan[j]] = [plan[j] as (typeof plan)[number], plan[i] as (typeof plan)[number]];
  }
  // Room for every pair: the mean spacing, slowed by stations still busy (checked below).
  const endGuessUs = WARM_UP_US + plan.length * PAIR_SPACING_US * 1.6 + 2 * STATION_BUSY_US;
  const stations: StationWorld[] = Array.from({ length: o.stations }, () => ({
    resonator: randomResonator(rng),
    boots: planBoots(rng, endGuessUs * 1.5, { meanIntervalUs: o.meanRestartIntervalUs, bootloaderUs: [1.5e6, 2e6] }),
    weights: [],
    episodes: [],
  }));
  const builder = new WorldBuilder(rng, o, stations);
  const freeAt = stations.map(() => WARM_UP_US);
  const pairs: PlannedPair[] = [];
  let t = WARM_UP_US;
  for (const { kind, separationUs } of plan) {
    const info = pairKindInfo(kind);
    const need = info.sameStation ? 1 : 2;
    t += rng.uniform(0.5, 1.5) * PAIR_SPACING_US;
    const sortedFree = [...freeAt].sort((a, b) => a - b);
    t = Math.max(t, sortedFree[need - 1] as number);
    const free = freeAt.map((f, i) => (f <= t ? i : -1)).filter((i) => i >= 0);
    const a = free.splice(rng.int(free.length), 1)[0] as number;
    const b = info.sameStation ? a : (free[rng.int(free.length)] as number);
    const firstFirst = info.first === info.second || rng.chance(0.5);
    // Same station, button vs card: either may come first.
    const [k1, k2] = firstFirst ? [info.first, info.second] : [info.second, info.first];
    const t1 = t;
    const t2 = t + separationUs;
    let events: readonly [PairEvent, PairEvent] | undefined;
    if (info.sameStation) {
      const h: StationHappenings = { buttons: [], cards: [], slap: info.slap };
      for (const [k, at] of [[k1, t1], [k2, t2]] as const) (k === 'button' ? h.buttons : h.cards).push(at);
      const r = builder.happen(a, h);
      if (r !== undefined) {
        const pick = (k: 'button' | 'card', at: number): PairEvent =>
          [...r.buttons, ...r.cards].find((e) => e.trueUs === at && (k === 'button') === (e.primary.source === 'button')) as PairEvent;
        events = [pick(k1, t1), pick(k2, t2)];
      }
    } else {
      const side = (station: number, k: 'button' | 'card', at: number): PairEvent | undefined => {
        const r = builder.happen(station, { buttons: k === 'button' ? [at] : [], cards: k === 'card' ? [at] : [], slap: info.slap });
        return r === undefined ? undefined : (k === 'button' ? r.buttons[0] : r.cards[0]);
      };
      const e1 = side(a, k1, t1);
      const e2 = side(b, k2, t2);
      events = e1 !== undefined && e2 !== undefined ? [e1, e2] : undefined;
    }
    pairs.push({ kind, separationUs, events });
    freeAt[a] = t2 + STATION_BUSY_US;
    freeAt[b] = t2 + STATION_BUSY_US;
  }
  for (const st of stations) st.episodes.sort((x, y) => x.startUs - y.startUs);
  return { stations, pairs, records: builder.records, endUs: t + 2 * STATION_BUSY_US + 1e6, firmware: o.firmware };
}

/** The loop wait of a ping reply on `station` at `atUs`: the episode's own steps, else a steady-state draw. */
export function pingLoopWaitUs(rng: SeededRandom, world: World, station: number, atUs: number, cursor: { i: number }): number {
  const eps = (world.stations[station] as StationWorld).episodes;
  while (cursor.i < eps.length && (eps[cursor.i] as Episode).endUs <= atUs) cursor.i++;
  const ep = eps[cursor.i];
  if (ep !== undefined && ep.startUs <= atUs) return leavesAtUs(ep.steps, atUs) - atUs;
  const before = eps[cursor.i - 1];
  return loopWaitUs(rng, world.firmware, before?.resting ?? 0);
}

export { PAIR_KINDS };
