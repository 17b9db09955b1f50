/**
 * End to end through the simulated table: simulated stations (resonators off by thousands of ppm) send real
 * `BTN+` lines through the real serial driver, whose clock sync maps them; the buzzer runtime buffers,
 * arbitrates and decides. Virtual time, so the outcome never depends on the machine.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUZZER_DEFAULTS, type BuzzerSetup } from '../../controller/buzzer/index.ts';
import { rig, type Rig } from '../hardware/serial/harness.ts';
import { buzzerRig, schedulerOn, type BuzzerRig } from './fakes.ts';

const SKEW = { 'seat-1': 3000, 'seat-2': -2500 } as const;

const SETUP: BuzzerSetup = {
  ...BUZZER_DEFAULTS,
  contestants: [
    { id: 'ana', name: 'Ana', colour: 'red', station: 'seat-1', team: null },
    { id: 'ben', name: 'Ben', colour: 'blue', station: 'seat-2', team: null },
  ],
  teams: [],
};

let hw: Rig | undefined;

afterEach(async () => {
  await hw?.stop();
  hw = undefined;
});

async function start(): Promise<{ hw: Rig; b: BuzzerRig }> {
  hw = rig({ stations: [{ id: 'seat-1', skewPpm: SKEW['seat-1'] }, { id: 'seat-2', skewPpm: SKEW['seat-2'] }] });
  const b = buzzerRig(SETUP, hw.hardware, hw.time, schedulerOn(hw.time));
  b.runtime.start();
  await hw.startAll();
  // Let clock sync gather a few seconds of pings (100 ms period) before anyone presses.
  await hw.time.advance(5000);
  return { hw, b };
}

/** Presses `station`'s button at controller time `hostUs` (converted to the station's own micros()). */
function pressAtHost(r: Rig, station: keyof typeof SKEW, hostUs: number): void {
  const ahead = (hostUs - r.time.nowUs()) * (1 + SKEW[station] * 1e-6);
  const target = Math.round((r.table.micros(station) + ahead) / 4) * 4;
  r.table.pressButton(station, { atDeviceUs: target % 2 ** 32, holdMs: 80 });
}

describe('buzzer mode through the simulated table', () => {
  it('orders presses 3 ms apart on two stations by device time, with the delay behind the winner', async () => {
    const { hw: r, b } = await start();
    expect(b.runtime.arm('host')).toEqual({ ok: true });
    const t = r.time.nowUs() + 200_000;
    pressAtHost(r, 'seat-1', t + 3000);
    pressAtHost(r, 'seat-2', t);
    await r.until(() => b.runtime.current.phase === 'decided', 2000);
    const view = b.published.last;
    expect(view?.winners).toEqual(['ben']);
    expect(view?.ranking.map((x) => x.contestant)).toEqual(['ben', 'ana']);
    const delay = view?.ranking[1]?.delayUs ?? 0;
    const u = (view?.ranking[0]?.uncertaintyUs ?? 0) + (view?.ranking[1]?.uncertaintyUs ?? 0);
    expect(Math.abs(delay - 3000)).toBeLessThanOrEqual(u);
    expect(b.published.events).toContainEqual(expect.objectContaining({ type: 'WINNER', contestant: 'ben' }));
    // Every press is in the log with its raw micros(), epoch, mapped time and uncertainty.
    const presses = b.log.sensors.filter((e) => e.kind === 'button-pressed');
    expect(presses).toHaveLength(2);
    for (const p of presses) expect(p.time).toMatchObject({ source: 'device', rawUs: expect.any(Number) as number, uncertaintyUs: expect.any(Number) as number });
    expect(b.lamps.filter((l) => l.station === 'seat-2').at(-1)?.pattern).toBe('on');
  });

  it('reports presses 20 µs apart on two stations as a tie with the figures (the clock mapping cannot separate them)', async () => {
    const { hw: r, b } = await start();
    b.runtime.arm('host');
    const t = r.time.nowUs() + 200_000;
    pressAtHost(r, 'seat-1', t);
    pressAtHost(r, 'seat-2', t + 20);
    await r.until(() => b.runtime.current.phase === 'decided', 2000);
    const tie = b.published.events.find((e) => e.type === 'TIE');
    expect(tie).toMatchObject({ type: 'TIE', contestants: expect.arrayContaining(['ana', 'ben']) as string[] });
    if (tie?.type !== 'TIE') throw new Error('no tie');
    // Honest figures: the nominal separation is inside the combined uncertainty.
    expect(tie.separationUs).toBeLessThanOrEqual(tie.combinedUncertaintyUs);
    expect(tie.combinedUncertaintyUs).toBeGreaterThan(20);
    expect(b.runtime.mark(true, 'host').ok).toBe(false);
  });

  it('locks a false start out for the penalty window and shows it', async () => {
    const { hw: r, b } = await start();
    pressAtHost(r, 'seat-1', r.time.nowUs() + 10_000);
    await r.until(() => b.published.events.some((e) => e.type === 'FALSE_START'), 1000);
    b.runtime.arm('host');
    expect(b.published.last?.lockouts).toEqual([expect.objectContaining({ contestant: 'ana', reason: 'false-start' })]);
    // ana again 100 ms later (inside 250 ms of her false start), ben 150 ms later.
    const t = r.time.nowUs();
    pressAtHost(r, 'seat-1', t + 100_000);
    pressAtHost(r, 'seat-2', t + 150_000);
    await r.until(() => b.runtime.current.phase === 'decided', 2000);
    expect(b.published.events.map((e) => e.type)).toEqual(expect.arrayContaining(['FALSE_START', 'BUZZER_ARMED', 'LOCKED_OUT', 'WINNER']));
    expect(b.published.events.find((e) => e.type === 'LOCKED_OUT')).toMatchObject({ contestant: 'ana', reason: 'false-start' });
    expect(b.published.last?.winners).toEqual(['ben']);
  });
});
