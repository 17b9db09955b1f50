/**
 * The benchmark's event lines in protocol 2, formatted by the production codec with their sequence numbers
 * and parsed back by it — once per world, since the lines a station sends do not depend on the link.
 */
import { formatDeviceLine, parseDeviceLine, type EventMessage } from '../../protocol/index.ts';
import type { SimulatedBoot } from '../sim/simulated-clock.ts';
import type { SensorRecord, World } from './world.ts';

/** One event line as it leaves a station. */
export interface EventLine {
  readonly kind: 'event';
  readonly readyUs: number;
  readonly boot: SimulatedBoot;
  /** The line's bytes on the wire, newline included. */
  readonly bytes: number;
  /** The record it reports (undefined for a weight line, which is traffic only). */
  readonly record: SensorRecord | undefined;
  /** What the controller's codec parsed from the line. */
  readonly message: EventMessage;
  /** The raw stamp (for lines the benchmark does not map). */
  readonly raw: number;
}

function recordMessage(r: SensorRecord, seq: number): EventMessage {
  switch (r.source) {
    case 'button': return { type: 'event', seq, t: r.raw, event: 'BTN+' };
    case 'slap': return { type: 'event', seq, t: r.raw, event: 'SLAP' };
    case 'tag': return { type: 'event', seq, t: r.raw, event: 'TAG+', uid: r.uid, windowUs: r.windowUs };
  }
}

/** Every station's event lines, in the order they leave it, with seq counting from 0 at every boot. */
export function formatEventLines(world: World): EventLine[][] {
  interface Pending {
    readonly readyUs: number;
    readonly boot: SimulatedBoot;
    readonly make: (seq: number) => EventMessage;
    readonly record: SensorRecord | undefined;
  }
  const perStation: Pending[][] = world.stations.map((st) => st.weights.map((w) => ({
    readyUs: w.readyUs, boot: w.boot, record: undefined,
    make: (seq: number): EventMessage => ({ type: 'event', seq, t: w.raw, event: 'W', grams: w.grams, stable: w.stable }),
  })));
  for (const r of world.records) {
    perStation[r.station]?.push({ readyUs: r.leavesUs, boot: r.boot, record: r, make: (seq) => recordMessage(r, seq) });
  }
  return perStation.map((lines) => {
    lines.sort((a, b) => a.readyUs - b.readyUs);
    let seq = 0;
    let boot: SimulatedBoot | undefined;
    return lines.map((l) => {
      if (l.boot !== boot) {
        boot = l.boot;
        seq = 0;
      }
      const sent = l.make(seq++);
      const text = formatDeviceLine(sent);
      // Weight lines are traffic (their length counts); the lines the benchmark judges go through the parser.
      const parsed = l.record === undefined ? sent : parseDeviceLine(text);
      if (!('type' in parsed) || parsed.type !== 'event') throw new Error(`bench: the codec refused its own line ${text}`);
      return { kind: 'event', readyUs: l.readyUs, boot: l.boot, bytes: text.length + 1, record: l.record, message: parsed, raw: sent.t };
    });
  });
}
