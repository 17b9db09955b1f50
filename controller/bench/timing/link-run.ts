/**
 * One link model over the benchmark's world: pings and replies, every station's lines on its serial wire
 * and through the host (simulated-link.ts, simulated-host.ts), and the controller's side, which is the
 * production code: each event line, parsed by the protocol codec (event-lines.ts), has its device stamp
 * placed and mapped by a `StationClock` fed in host arrival order and its interval taken from
 * `eventInterval()` — exactly what the serial driver does — and a `TAG+` is dated by the slap before it
 * where the controller's own slap matcher (serial/slap-matching.ts, one per station, fed every event line of
 * its station in arrival order as serial-stations.ts does) gives it one.
 *
 * For the realistic link it also delivers a host-stamping competitor's lines (world.ts,
 * `competitorLeavesUs`) through the same host, for the arrival-order baseline.
 */
import { formatDeviceLine } from '../../protocol/index.ts';
import { DEFAULT_SENSOR_TIMING, eventInterval, type SensorTiming } from '../../hardware/serial/event-interval.ts';
import type { TimedEvent } from '../../kernel/event-order.ts';
import { SeededRandom } from '../../kernel/random.ts';
import { simulatedMicros, type SimulatedBoot } from '../sim/simulated-clock.ts';
import { deliverToHost, planBusySpells, type BusySpells } from '../sim/simulated-host.ts';
import { outboundArrivalUs, wireTimeUs, type LinkModel } from '../sim/simulated-link.ts';
import { StationClock } from '../../hardware/clock/station-clock.ts';
import type { EventLine } from './event-lines.ts';
import { SlapMatcher, type MatchOutput } from '../../hardware/serial/slap-matching.ts';
import type { SensorEvent, TagArrival } from '../../hardware/interface.ts';
import { pingLoopWaitUs, type StationWorld, type World } from './world.ts';

export interface LinkRunOptions {
  readonly link: LinkModel;
  /** Ping period per station in steady state, µs. */
  readonly pingIntervalUs: number;
  /** Whether a restarted station prints its banner; without, restarts are found by time. */
  readonly banners: boolean;
  readonly sensorTiming?: SensorTiming;
  /**
   * For the tests only: feed every `TAG+` with a zero window, as a firmware that stamped tags at their read
   * and claimed no window would. The benchmark must then find wrong orders.
   */
  readonly zeroTagWindow?: boolean;
}

/** A record as the controller saw it. */
export interface ControllerEvent extends TimedEvent {
  readonly record: number;
  readonly synced: boolean;
}

export interface LinkRun {
  readonly link: LinkModel;
  /** Per record id: its own event (a `TAG+` with its own interval), undefined if its line never arrived. */
  readonly own: readonly (ControllerEvent | undefined)[];
  /** Per record id: what dates it; for a `TAG+` the matched `SLAP` when there is one, else as `own`. */
  readonly dated: readonly (ControllerEvent | undefined)[];
  /** Per record id: host arrival time of its line (NaN when it never arrived). */
  readonly arrivalUs: Float64Array;
  /** Per record id: host arrival time of the competitor's line (realistic link only). */
  readonly competitorArrivalUs: Float64Array | undefined;
  readonly syncSamples: number;
  readonly restartsDetected: number;
  /** Lines delivered to the controller. */
  readonly lines: number;
}

// Line lengths of the protocol (newline included), for wire times.
const digits = (n: number): number => String(n).length;
const pingBytes = (id: number): number => digits(id) + 9; // `<id> ping*XX\n`
const pongBytes = (id: number, raw: number): number => digits(id) + digits(raw) + 10; // `ok <id> t=<raw>*XX\n`

interface Pong {
  readonly kind: 'pong';
  readonly readyUs: number;
  readonly boot: SimulatedBoot;
  readonly bytes: number;
  readonly hostSendUs: number;
  readonly raw: number;
  readonly outboundMinUs: number;
}

interface Banner {
  readonly kind: 'banner';
  readonly readyUs: number;
  readonly boot: SimulatedBoot;
  readonly bytes: number;
}

type Line = Pong | Banner | EventLine;

function planPings(
  rng: SeededRandom, o: LinkRunOptions, world: World, station: number, name: string, framePhaseUs: number, lines: Line[],
): void {
  const st = world.stations[station] as StationWorld;
  const serial = o.link.serial;
  let id = rng.int(1000);
  const cursor = { i: 0 };
  for (const boot of st.boots) {
    if (boot.upUs >= world.endUs) break;
    // After a banner (or at start) the controller pings in a quick burst, then settles to the steady period.
    let t = boot.upUs + (boot.banner ? 20_000 : rng.uniform(0, 10_000));
    for (let n = 0; t < Math.min(boot.downUs, world.endUs); n++) {
      id = (id + 1) % 65536;
      const arrived = outboundArrivalUs(rng, serial, t, pingBytes(id), framePhaseUs);
      const stampUs = arrived + pingLoopWaitUs(rng, world, station, arrived, cursor);
      if (stampUs < boot.downUs) {
        const raw = simulatedMicros(st.resonator, boot, stampUs);
        lines.push({
          kind: 'pong', readyUs: stampUs, boot, bytes: pongBytes(id, raw), hostSendUs: t, raw,
          outboundMinUs: wireTimeUs(serial, pingBytes(id)),
        });
      }
      t += n < 10 ? 20_000 : o.pingIntervalUs * rng.uniform(0.9, 1.1);
    }
    if (boot.banner) {
      const text = formatDeviceLine({ type: 'banner', fw: '0.3.0', proto: 2, kind: 'seat', station: name, boot: boot.bootId });
      lines.push({ kind: 'banner', readyUs: boot.upUs + 1000, boot, bytes: text.length + 1 });
    }
  }
}

/** Lines on every station's wire, one after the other; lines cut off by a reset are dropped. */
interface Wired<L> {
  readonly lines: L[];
  readonly port: number[];
  readonly wireEndUs: number[];
}

function putOnTheWire<L extends { readonly readyUs: number; readonly boot: SimulatedBoot; readonly bytes: number }>(
  link: LinkModel, perStation: readonly L[][],
): Wired<L> {
  const out: Wired<L> = { lines: [], port: [], wireEndUs: [] };
  perStation.forEach((lines, port) => {
    lines.sort((a, b) => a.readyUs - b.readyUs);
    let txFree = -Infinity;
    let txBoot: SimulatedBoot | undefined;
    for (const line of lines) {
      if (line.boot !== txBoot) {
        txBoot = line.boot;
        txFree = line.boot.upUs;
      }
      const end = Math.max(line.readyUs, txFree) + wireTimeUs(link.serial, line.bytes);
      txFree = end;
      if (end > line.boot.downUs) continue;
      out.lines.push(line);
      out.port.push(port);
      out.wireEndUs.push(end);
    }
  });
  return out;
}

/** Runs one link model over the world, whose event lines are `eventLines` (formatEventLines). */
export function runLink(
  world: World, eventLines: readonly (readonly EventLine[])[], seed: string, names: readonly string[], o: LinkRunOptions,
): LinkRun {
  const rng = new SeededRandom(`bench-timing:link:${o.link.name}:${seed}`);
  const timing = o.sensorTiming ?? DEFAULT_SENSOR_TIMING;
  const matchers = names.map(() => new SlapMatcher());
  // One USB host controller: the same frames for every port, out and in.
  const framePhaseUs = rng.uniform(0, o.link.serial.usbFrameUs);
  const perStation: Line[][] = world.stations.map((_, s) => {
    const lines: Line[] = [...(eventLines[s] ?? [])];
    planPings(rng, o, world, s, names[s] ?? '?', framePhaseUs, lines);
    return lines;
  });
  const wired = putOnTheWire(o.link, perStation);
  const spells: BusySpells | undefined = o.link.host.kind === 'common-mode' ? planBusySpells(rng, o.link.host, world.endUs + 2e6) : undefined;
  const arrivals = deliverToHost(rng, o.link, wired, { framePhaseUs, ...(spells && { spells }) });
  const order = new Uint32Array(arrivals.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => (arrivals[a] as number) - (arrivals[b] as number) || a - b);

  const clocks = names.map(() => new StationClock());
  const own: (ControllerEvent | undefined)[] = new Array<ControllerEvent | undefined>(world.records.length).fill(undefined);
  const dated: (ControllerEvent | undefined)[] = new Array<ControllerEvent | undefined>(world.records.length).fill(undefined);
  const arrivalUs = new Float64Array(world.records.length).fill(NaN);
  // What the matcher releases: a tag (its uid is `record:<id>`) dated by its slap (the slap's seq is its record id).
  const take = (outputs: readonly MatchOutput[]): void => {
    for (const out of outputs) {
      if (out.kind !== 'tag') continue;
      const id = Number(out.event.uid.slice('record:'.length));
      const slapId = out.event.slap?.seq;
      dated[id] = slapId === undefined ? own[id] : own[slapId];
    }
  };
  let syncSamples = 0;
  let restartsDetected = 0;
  for (const i of order) {
    const line = wired.lines[i] as Line;
    const hostUs = arrivals[i] as number;
    const station = wired.port[i] as number;
    const clock = clocks[station] as StationClock;
    const before = clock.epoch;
    switch (line.kind) {
      case 'banner':
        if (o.banners) clock.banner(line.boot.bootId);
        break;
      case 'pong':
        if (clock.pong({
          hostSendUs: line.hostSendUs, raw: line.raw, hostRecvUs: hostUs,
          outboundMinUs: line.outboundMinUs, inboundMinUs: wireTimeUs(o.link.serial, line.bytes),
        }).rejected === undefined) syncSamples++;
        break;
      case 'event': {
        // Weight lines are traffic only: no race is decided by a weight, so their mapping is skipped.
        const record = line.record;
        if (record === undefined) break;
        const message = o.zeroTagWindow === true && line.message.event === 'TAG+' ? { ...line.message, windowUs: 0 } : line.message;
        const stamped = clock.event(message.t, hostUs);
        const interval = eventInterval(message, timing);
        // One object literal (no spread: these are many, and spread builds them slowly).
        const event: ControllerEvent = {
          station: names[station] ?? '?', epoch: stamped.epoch, deviceUs: stamped.deviceUs, hostUs: stamped.hostUs,
          uncertaintyUs: stamped.uncertaintyUs, beforeUs: interval.beforeUs, afterUs: interval.afterUs,
          record: record.id, synced: stamped.synced,
        };
        own[record.id] = event;
        arrivalUs[record.id] = hostUs;
        const matcher = matchers[station] as SlapMatcher;
        const time = {
          source: 'device' as const, epoch: event.epoch, deviceUs: event.deviceUs, hostUs: event.hostUs,
          uncertaintyUs: event.uncertaintyUs, beforeUs: interval.beforeUs, afterUs: interval.afterUs,
        };
        if (message.event === 'TAG+') {
          const tag: TagArrival = { kind: 'tag-arrived', station: event.station, uid: `record:${record.id}`, time };
          take(matcher.tag(tag));
        } else if (message.event === 'SLAP') {
          const slap: SensorEvent = { kind: 'slap', station: event.station, seq: record.id, time };
          dated[record.id] = event;
          take(matcher.slap(slap));
        } else {
          dated[record.id] = event;
          take(matcher.observe(event.epoch, event.deviceUs));
        }
        break;
      }
    }
    if (clock.epoch !== before) restartsDetected++;
  }
  // Tags still held when the run ends (no later line of their station came) are decided on what arrived.
  for (const matcher of matchers) take(matcher.flush());
  const competitorArrivalUs = spells === undefined
    ? undefined
    : deliverCompetitor(rng, o.link, world, eventLines, framePhaseUs, spells);
  return { link: o.link, own, dated, arrivalUs, competitorArrivalUs, syncSamples, restartsDetected, lines: arrivals.length };
}

/** The competitor's lines (one per record, leaving at `competitorLeavesUs`, as long as ours) through the same host. */
function deliverCompetitor(
  rng: SeededRandom, link: LinkModel, world: World, eventLines: readonly (readonly EventLine[])[],
  framePhaseUs: number, spells: BusySpells,
): Float64Array {
  interface CompetitorLine { readonly readyUs: number; readonly boot: SimulatedBoot; readonly bytes: number; readonly id: number }
  const perStation: CompetitorLine[][] = eventLines.map((lines) => lines.flatMap((l) => (l.record === undefined ? [] : [{
    readyUs: l.record.competitorLeavesUs, boot: l.boot, bytes: l.bytes, id: l.record.id,
  }])));
  const wired = putOnTheWire(link, perStation);
  const arrivals = deliverToHost(rng, link, wired, { framePhaseUs, spells });
  const out = new Float64Array(world.records.length).fill(NaN);
  wired.lines.forEach((l, i) => {
    out[l.id] = arrivals[i] as number;
  });
  return out;
}
