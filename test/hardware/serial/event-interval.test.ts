import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSOR_TIMING, eventInterval } from '../../../controller/hardware/serial/event-interval.ts';
import { parseDeviceLine, frame, type EventMessage } from '../../../controller/protocol/index.ts';

const event = (payload: string): EventMessage => {
  const m = parseDeviceLine(frame(payload));
  if (!('type' in m) || m.type !== 'event') throw new Error(`not an event: ${payload}`);
  return m;
};

describe('event intervals', () => {
  const timing = { isrLatencyUs: 70, tagPowerUpUs: 3000, legacyTagCycleUs: 140_000, weightWindowUs: 600_000 };

  it('a button or slap edge lies up to the interrupt latency before its stamp', () => {
    expect(eventInterval(event('E 1 5000 BTN+'), timing)).toEqual({ beforeUs: 70, afterUs: 0 });
    expect(eventInterval(event('E 1 5000 BTN-'), timing)).toEqual({ beforeUs: 70, afterUs: 0 });
    expect(eventInterval(event('E 1 5000 SLAP'), timing)).toEqual({ beforeUs: 70, afterUs: 0 });
  });

  it('a tag arrived within its window, widened by the power-up time', () => {
    expect(eventInterval(event('E 1 90000 TAG+ 04A1B2C3 2480'), timing)).toEqual({ beforeUs: 5480, afterUs: 0 });
    expect(eventInterval(event('E 1 90000 TAG+ 04A1B2C3 0'), timing)).toEqual({ beforeUs: 3000, afterUs: 0 });
  });

  it('a tag left within its window (no power-up: it stops answering when it leaves)', () => {
    expect(eventInterval(event('E 1 90000 TAG- 04A1B2C3 4100'), timing)).toEqual({ beforeUs: 4100, afterUs: 0 });
  });

  it('protocol 1 tag lines get the widest interval that version allows', () => {
    expect(eventInterval(event('E 1 90000 TAG+ 04A1B2C3'), timing)).toEqual({ beforeUs: 143_000, afterUs: 0 });
    expect(eventInterval(event('E 1 90000 TAG- 04A1B2C3'), timing)).toEqual({ beforeUs: 280_000, afterUs: 0 });
  });

  it('a settled weight came to rest within the filter window', () => {
    expect(eventInterval(event('E 1 90000 W 12.5 S'), timing)).toEqual({ beforeUs: 600_000, afterUs: 0 });
  });

  it('has defaults for every allowance', () => {
    for (const v of Object.values(DEFAULT_SENSOR_TIMING)) expect(v).toBeGreaterThan(0);
    expect(eventInterval(event('E 1 90000 TAG+ 04A1B2C3 1000')).beforeUs).toBe(1000 + DEFAULT_SENSOR_TIMING.tagPowerUpUs);
  });
});
