/**
 * A station's health over time and the warnings read from it. Pure (no DOM): the dashboard server keeps the
 * samples (`dashboard/server/history.ts`), the station page plots them, the notices page lists what changed,
 * and test/dashboard/health-samples.test.ts checks the judgements.
 *
 * The clock judgement is clock-figures.ts's (bad beyond 5 ms, or not synced); the counters are the station's
 * own (docs/mqtt.md, `health/<station>`): a rise in any of them is worth a look.
 */
import { judgeUncertainty } from './clock-figures.ts';

/** One station's health at one moment. */
export interface HealthSample {
  /** When the dashboard received it, ms since 1970. */
  readonly at: number;
  readonly online: boolean;
  /** The error counters as published (badLines, lostEvents, timeouts, commandErrors, resets, disconnects). */
  readonly errors: Readonly<Record<string, number>>;
  /** µs; null while unbounded (not synced); absent for a station without a clock. */
  readonly uncertaintyUs?: number | null;
  readonly driftPpm?: number;
}

export type Severity = 'problem' | 'warning' | 'info';

/** A line of the notices page. */
export interface NoticeLine {
  readonly at: number;
  readonly severity: Severity;
  /** A stable code: the NOTICE's own, or one of the health codes below. */
  readonly code: string;
  readonly station?: string;
  readonly player?: string;
  readonly text: string;
  /** What makes it one line (the same notice fetched and received live is shown once). */
  readonly key: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A published health payload as a sample received at `at`. */
export function sampleOf(payload: unknown, at: number): HealthSample | undefined {
  if (!isRecord(payload)) return undefined;
  const errors: Record<string, number> = {};
  if (isRecord(payload.errors)) for (const [k, v] of Object.entries(payload.errors)) if (typeof v === 'number') errors[k] = v;
  const clock = isRecord(payload.clock) ? payload.clock : undefined;
  return {
    at,
    online: payload.online === true,
    errors,
    ...(clock === undefined ? {} : { uncertaintyUs: typeof clock.uncertaintyUs === 'number' ? clock.uncertaintyUs : null }),
    ...(typeof clock?.driftPpm === 'number' ? { driftPpm: clock.driftPpm } : {}),
  };
}

/** Nothing a chart or the notices would show differently: online, counters, uncertainty to 0.1 ms. */
export function sameReading(a: HealthSample, b: HealthSample): boolean {
  const round = (u: number | null | undefined): number | null | undefined => (typeof u === 'number' ? Math.round(u / 100) : u);
  const keys = new Set([...Object.keys(a.errors), ...Object.keys(b.errors)]);
  return a.online === b.online && [...keys].every((k) => a.errors[k] === b.errors[k])
    && round(a.uncertaintyUs) === round(b.uncertaintyUs);
}

/** Appends `sample` unless it reads like the last one (live samples between the fetched history and now). */
export function addSample(list: HealthSample[], sample: HealthSample | undefined): void {
  const last = list[list.length - 1];
  if (sample !== undefined && (last === undefined || !sameReading(last, sample))) list.push(sample);
}

/** Whether the clock would decide ties: bad by clock-figures.ts (not synced, or beyond 5 ms). */
function clockBad(s: HealthSample): boolean {
  return s.online && s.uncertaintyUs !== undefined && judgeUncertainty(s.uncertaintyUs).judgement === 'bad';
}

/** What changed from one sample to the next, as notices. The first sample of a station says only what is wrong. */
export function healthNotices(station: string, samples: readonly HealthSample[]): NoticeLine[] {
  const out: NoticeLine[] = [];
  const line = (s: HealthSample, severity: Severity, code: string, text: string): void => {
    out.push({ at: s.at, severity, code, station, text, key: `${station}:${s.at}:${code}` });
  };
  let prev: HealthSample | undefined;
  for (const s of samples) {
    if (prev === undefined ? !s.online : prev.online && !s.online) line(s, 'problem', 'STATION_OFFLINE', `${station} went offline: its sensors are not heard`);
    if (prev !== undefined && !prev.online && s.online) line(s, 'info', 'STATION_ONLINE', `${station} is online again`);
    if (prev !== undefined) {
      for (const [k, v] of Object.entries(s.errors)) {
        const before = prev.errors[k] ?? 0;
        if (v > before) line(s, 'warning', 'ERROR_COUNTER', `${station}: ${k} rose by ${v - before} to ${v}`);
      }
    }
    const bad = clockBad(s);
    const wasBad = prev !== undefined && clockBad(prev);
    if (bad && !wasBad) line(s, 'warning', 'CLOCK_UNCERTAIN', `${station}: clock ${judgeUncertainty(s.uncertaintyUs ?? null).text} — beyond 5 ms the clock, not the sensors, would decide ties`);
    if (!bad && wasBad && s.online) line(s, 'info', 'CLOCK_GOOD', `${station}: clock back within 5 ms (${judgeUncertainty(s.uncertaintyUs ?? null).text})`);
    prev = s;
  }
  return out;
}

/** A published NOTICE event as a line (`nameOf`: a player's or station's configured name). */
export function noticeLine(event: Readonly<Record<string, unknown>>): NoticeLine | undefined {
  if (event.type !== 'NOTICE' || typeof event.at !== 'number') return undefined;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const station = str(event.station);
  const player = str(event.player);
  return {
    at: event.at,
    severity: 'warning',
    code: str(event.code) ?? 'NOTICE',
    ...(station === undefined ? {} : { station }),
    ...(player === undefined ? {} : { player }),
    text: str(event.message) ?? '',
    key: `notice:${String(event.epoch)}:${String(event.seq)}`,
  };
}
