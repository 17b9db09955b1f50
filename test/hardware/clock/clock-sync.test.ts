import { describe, expect, it } from 'vitest';
import { ClockSync } from '../../../controller/hardware/clock/clock-sync.ts';
import { SeededRandom } from '../../../controller/kernel/random.ts';
import { StationClock } from '../../../controller/hardware/clock/station-clock.ts';
import { deviceElapsedUs, type ResonatorModel } from '../../../controller/bench/sim/simulated-clock.ts';

/** A synthetic station: device µs = offset + integral of (1 + rate error) over host time. */
function truth(skew: number, wanderAmplitude = 0): { readonly device: (hostUs: number) => number; readonly r: ResonatorModel } {
  const r: ResonatorModel = { skew, wanderAmplitude, wanderPeriodUs: 25 * 60e6, wanderPhase: 1 };
  return { r, device: (hostUs) => 7_000_000 + deviceElapsedUs(r, 0, hostUs) };
}

/** Feeds pings every `everyUs` with one-way delays of `minUs` plus random extra of up to a few ms. */
function feed(sync: ClockSync, rng: SeededRandom, device: (h: number) => number, fromUs: number, toUs: number,
  everyUs = 100_000): void {
  for (let t = fromUs; t < toUs; t += everyUs * rng.uniform(0.9, 1.1)) {
    const out = 1000 + rng.uniform(0, 1000) + rng.exponential(100);
    const back = 2000 + rng.uniform(0, 1000) + rng.exponential(2000);
    const d = Math.floor(device(t + out) / 4) * 4;
    sync.addSample({ hostSendUs: t, deviceUs: d, hostRecvUs: t + out + back, outboundMinUs: 1000, inboundMinUs: 2000 });
  }
}

describe('ClockSync', () => {
  it('knows nothing before the first sample', () => {
    expect(new ClockSync().toHost(123)).toBeUndefined();
    expect(new ClockSync().estimate()).toBeUndefined();
  });

  it('recovers offset and drift of a 0.4 % fast station within the stated bounds', () => {
    const rng = new SeededRandom('recover');
    const { device } = truth(0.004);
    const sync = new ClockSync();
    feed(sync, rng, device, 0, 90e6);
    const est = sync.estimate();
    expect(est).toBeDefined();
    // Host µs per device µs is 1 / 1.004: a skew of about −3984 ppm.
    expect(est?.skewPpm).toBeCloseTo((1 / 1.004 - 1) * 1e6, -1);
    expect(Math.abs((est?.skewPpm ?? 0) - (1 / 1.004 - 1) * 1e6)).toBeLessThanOrEqual(est?.skewUncertaintyPpm ?? 0);
    const host = 90e6 + 50_000;
    const mapped = sync.toHost(device(host));
    expect(mapped).toBeDefined();
    expect(Math.abs((mapped?.timeUs ?? 0) - host)).toBeLessThanOrEqual(mapped?.uncertaintyUs ?? 0);
    expect(mapped?.uncertaintyUs).toBeLessThan(300);
  });

  it('contains the true time in its reported uncertainty for (nearly) every event, with drift and wander', () => {
    const rng = new SeededRandom('coverage');
    let inside = 0;
    let total = 0;
    for (const skew of [-0.005, -0.001, 0.002, 0.005]) {
      const { device } = truth(skew, 10e-6);
      const sync = new ClockSync();
      for (let t = 0; t < 120e6; t += 1e6) {
        feed(sync, rng, device, t, t + 1e6);
        if (t < 5e6) continue;
        // Events between the last ping and up to 300 ms after it: mapping extrapolates, as at run time.
        const eventHost = t + 1e6 + rng.uniform(-500_000, 300_000);
        const mapped = sync.toHost(device(eventHost));
        if (mapped === undefined) continue;
        total++;
        if (Math.abs(mapped.timeUs - eventHost) <= mapped.uncertaintyUs + 4) inside++;
      }
    }
    expect(total).toBeGreaterThan(400);
    expect(inside / total).toBeGreaterThanOrEqual(0.99);
  });

  it('refuses samples that cannot be true or carry no information', () => {
    const sync = new ClockSync({ outboundMinUs: 1000, inboundMinUs: 2000 });
    expect(sync.addSample({ hostSendUs: 0, deviceUs: 10, hostRecvUs: 2500 })).toBe('shorter-than-minimum');
    expect(sync.addSample({ hostSendUs: 0, deviceUs: 10, hostRecvUs: 80_000 })).toBe('round-trip-too-long');
    expect(sync.addSample({ hostSendUs: 10, deviceUs: 10, hostRecvUs: 5 })).toBe('bad-times');
    expect(sync.addSample({ hostSendUs: 0, deviceUs: 10, hostRecvUs: 5000 })).toBeUndefined();
    expect(sync.addSample({ hostSendUs: 1, deviceUs: 10, hostRecvUs: 5000 })).toBe('not-after-previous');
    expect(sync.sampleCount).toBe(1);
  });

  it('keeps the drift across a restart, so one sample after the reboot maps tightly again', () => {
    const rng = new SeededRandom('restart');
    const { device } = truth(-0.003);
    const sync = new ClockSync();
    feed(sync, rng, device, 0, 60e6);
    sync.restart();
    expect(sync.sampleCount).toBe(0);
    expect(sync.toHost(0)).toBeUndefined();
    // The station rebooted at host 62 s: its micros() restarts at 0.
    const resonator = { skew: -0.003, wanderAmplitude: 0, wanderPeriodUs: 1, wanderPhase: 0 };
    const rebooted = (h: number): number => deviceElapsedUs(resonator, 62e6, h);
    feed(sync, rng, rebooted, 62e6, 62.25e6);
    const host = 62.5e6;
    const mapped = sync.toHost(rebooted(host));
    expect(mapped).toBeDefined();
    expect(Math.abs((mapped?.timeUs ?? 0) - host)).toBeLessThanOrEqual(mapped?.uncertaintyUs ?? 0);
    expect(mapped?.uncertaintyUs).toBeLessThan(1000);
    // Without the kept skew, a 0.25 s baseline and 250 ms extrapolation would leave a far wider interval.
    const fresh = new ClockSync();
    feed(fresh, new SeededRandom('restart-fresh'), rebooted, 62e6, 62.25e6);
    expect(fresh.toHost(rebooted(host))?.uncertaintyUs).toBeGreaterThan(mapped?.uncertaintyUs ?? Infinity);
  });

  it('drops samples that contradict newer ones instead of reporting a false interval', () => {
    const rng = new SeededRandom('jump');
    const sync = new ClockSync();
    feed(sync, rng, (h) => h + 1_000_000, 0, 10e6);
    // The device clock steps by 5 ms (as if an undetected glitch): old samples no longer fit.
    feed(sync, rng, (h) => h + 1_005_000, 10e6, 12e6);
    const mapped = sync.toHost(12e6 + 1_005_000);
    expect(sync.inconsistentSamples).toBeGreaterThan(0);
    expect(Math.abs((mapped?.timeUs ?? 0) - 12e6)).toBeLessThanOrEqual(mapped?.uncertaintyUs ?? 0);
  });
});

describe('StationClock', () => {
  it('maps events through the 32-bit wrap and starts over after a restart announced by a banner', () => {
    const rng = new SeededRandom('station');
    const clock = new StationClock({ sync: { outboundMinUs: 1000, inboundMinUs: 2000 } });
    // micros() is 10 s before the wrap when the host starts watching; the device runs 0.2 % slow.
    const raw = (h: number, start: number): number => Math.floor((start + h * 0.998) / 4) * 4 % 2 ** 32;
    const start = 2 ** 32 - 10e6;
    expect(clock.event(raw(0, start), 5000)).toMatchObject({ synced: false, uncertaintyUs: Infinity, hostUs: 5000 });
    for (let t = 0; t < 20e6; t += 100_000) {
      const out = 1000 + rng.uniform(0, 800);
      clock.pong({ hostSendUs: t, raw: raw(t + out, start), hostRecvUs: t + out + 2000 + rng.uniform(0, 3000) });
    }
    const event = clock.event(raw(20e6 + 1000, start), 20e6 + 9000);
    expect(event.synced).toBe(true);
    expect(event.deviceUs).toBeGreaterThan(2 ** 32); // past the wrap, still one timeline
    expect(Math.abs(event.hostUs - (20e6 + 1000))).toBeLessThanOrEqual(event.uncertaintyUs);
    clock.banner(42);
    const first = clock.pong({ hostSendUs: 22e6, raw: 3000, hostRecvUs: 22e6 + 3500 });
    expect(first.reset).toBe('boot-id');
    expect(clock.epoch).toBe(1);
    expect(clock.sync.sampleCount).toBe(1);
  });
});
