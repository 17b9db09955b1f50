/**
 * A station's clock figures for people: in units that read (s and min for the offset, ms for the
 * uncertainty, ppm with seconds per hour for the drift), each with a good / ok / bad judgement and the reason.
 * Pure (no DOM), so the thresholds are unit-tested.
 *
 * What the thresholds rest on (docs/timing.md):
 * - **Offset** is where the station's `micros()` started against the controller's clock: it is its boot time,
 *   not an error, and is never judged.
 * - **Drift** is the resonator's rate error. A Uno/Nano's ceramic resonator is specified to ±0.5 % (5000 ppm,
 *   §1); a crystal is within ±50 ppm. Up to 1000 ppm is good, up to 5000 ppm ok (within the part's
 *   tolerance, mapped out by the clock model), beyond that bad: outside the part's tolerance, a sign of a
 *   failing resonator or of samples that do not fit (the model itself allows up to 10 000 ppm, §2).
 * - **Uncertainty** is the half width of a mapped time stamp. Up to 1 ms is good (the timing benchmark's p99
 *   is 0.32 ms); up to 5 ms ok, since ties between cards are then still decided by the tag windows (±4 ms,
 *   §3.1) and not by the clock; beyond 5 ms, or not synced, bad: the clock would decide ties.
 */

export type Judgement = 'good' | 'ok' | 'bad';

export interface JudgedFigure {
  readonly text: string;
  readonly judgement: Judgement | null;
  /** Why it is judged so (a tooltip and the accessible description). */
  readonly why: string;
}

export const DRIFT_GOOD_PPM = 1000;
export const DRIFT_OK_PPM = 5000;
export const UNCERTAINTY_GOOD_US = 1000;
export const UNCERTAINTY_OK_US = 5000;

/** "7 min 48 s", "3.2 s", "12 ms": a signed duration in the largest unit that reads. */
export function duration(us: number): string {
  const sign = us < 0 ? '−' : '';
  const a = Math.abs(us);
  if (a < 1000) return `${sign}${a.toFixed(0)} µs`;
  if (a < 1e6) return `${sign}${(a / 1000).toFixed(1)} ms`;
  const s = a / 1e6;
  if (s < 60) return `${sign}${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${sign}${min} min ${Math.round(s - min * 60)} s`;
  const hours = Math.floor(min / 60);
  return `${sign}${hours} h ${min - hours * 60} min`;
}

export function judgeOffset(offsetUs: number): JudgedFigure {
  return { text: duration(offsetUs), judgement: null, why: 'where the station\'s clock started (its boot): not an error' };
}

export function judgeDrift(driftPpm: number): JudgedFigure {
  const a = Math.abs(driftPpm);
  const perHour = Math.abs(driftPpm) * 3.6e-3; // ppm × 3600 s / 1e6 → s per hour
  const text = `${driftPpm >= 0 ? '+' : '−'}${a.toFixed(0)} ppm (${perHour < 1 ? `${(perHour * 1000).toFixed(0)} ms` : `${perHour.toFixed(1)} s`}/h)`;
  if (a <= DRIFT_GOOD_PPM) return { text, judgement: 'good', why: `within ${DRIFT_GOOD_PPM} ppm: a well-behaved resonator or a crystal` };
  if (a <= DRIFT_OK_PPM) return { text, judgement: 'ok', why: `within the ceramic resonator's ±${DRIFT_OK_PPM} ppm (0.5 %); the clock model maps it out` };
  return { text, judgement: 'bad', why: `beyond a resonator's ±${DRIFT_OK_PPM} ppm: a failing part or samples that do not fit` };
}

export function judgeUncertainty(uncertaintyUs: number | null): JudgedFigure {
  if (uncertaintyUs === null || !Number.isFinite(uncertaintyUs)) {
    return { text: 'not synced', judgement: 'bad', why: 'no clock mapping yet: its events can only tie' };
  }
  const text = `±${(uncertaintyUs / 1000).toFixed(uncertaintyUs < 1000 ? 2 : 1)} ms`;
  if (uncertaintyUs <= UNCERTAINTY_GOOD_US) return { text, judgement: 'good', why: 'within 1 ms: the clock never decides a tie' };
  if (uncertaintyUs <= UNCERTAINTY_OK_US) return { text, judgement: 'ok', why: 'within 5 ms: ties are still decided by the tag windows (±4 ms)' };
  return { text, judgement: 'bad', why: 'beyond 5 ms: the clock, not the sensors, would decide ties' };
}
