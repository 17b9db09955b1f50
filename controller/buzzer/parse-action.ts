/**
 * Reading a buzzer action back from the log (JSON): the shape is checked so that a damaged row is reported
 * instead of replayed into nonsense. Pure.
 */
import type { ActionTime, BuzzerAction, PressTime } from './types.ts';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function actionTime(v: unknown): ActionTime | undefined {
  return isRec(v) && num(v.hostUs) && num(v.wallMs) ? { hostUs: v.hostUs, wallMs: v.wallMs } : undefined;
}

/** A sensor interval read back: absent in logs written before presses carried it (then ranked without one: 0). */
function interval(v: unknown): number | undefined {
  if (v === undefined) return 0;
  return num(v) && v >= 0 ? v : undefined;
}

function pressTime(v: unknown): PressTime | undefined {
  if (!isRec(v) || (v.source !== 'device' && v.source !== 'host')) return undefined;
  if (!num(v.epoch) || !num(v.deviceUs) || !num(v.hostUs) || !num(v.uncertaintyUs)) return undefined;
  const beforeUs = interval(v.beforeUs);
  const afterUs = interval(v.afterUs);
  if (beforeUs === undefined || afterUs === undefined) return undefined;
  return {
    source: v.source, epoch: v.epoch, deviceUs: v.deviceUs, hostUs: v.hostUs, uncertaintyUs: v.uncertaintyUs, beforeUs, afterUs,
    ...(num(v.rawUs) ? { rawUs: v.rawUs } : {}),
  };
}

/** A logged action, or the reason it cannot be one. */
export function parseBuzzerAction(raw: unknown): BuzzerAction | { readonly error: string } {
  if (!isRec(raw) || typeof raw.type !== 'string') return { error: 'not an action object' };
  const at = actionTime(raw.at);
  if (at === undefined) return { error: `${raw.type}: missing or bad "at"` };
  const by = typeof raw.by === 'string' ? raw.by : 'unknown';
  switch (raw.type) {
    case 'arm':
    case 'reset':
      return { type: raw.type, at, by };
    case 'live':
    case 'decide':
    case 'auto-reset':
      return { type: raw.type, at };
    case 'press': {
      const time = pressTime(raw.time);
      if (typeof raw.contestant !== 'string' || typeof raw.station !== 'string' || time === undefined) return { error: 'press: bad fields' };
      return { type: 'press', at, contestant: raw.contestant, station: raw.station, time, ...(num(raw.sensorSeq) ? { sensorSeq: raw.sensorSeq } : {}) };
    }
    case 'mark':
      if (typeof raw.correct !== 'boolean') return { error: 'mark: "correct" must be a boolean' };
      return { type: 'mark', at, by, correct: raw.correct, ...(typeof raw.contestant === 'string' ? { contestant: raw.contestant } : {}) };
    case 'score':
      if (typeof raw.entrant !== 'string' || !num(raw.delta)) return { error: 'score: bad fields' };
      return { type: 'score', at, by, entrant: raw.entrant, delta: raw.delta, ...(typeof raw.reason === 'string' ? { reason: raw.reason } : {}) };
    default:
      return { error: `unknown buzzer action "${raw.type}"` };
  }
}
