/**
 * A simulated station clock for the benchmark and tests: a ceramic resonator with a rate error and a slow
 * temperature wander, `micros()` with its 4 µs resolution and 32-bit wrap, and restarts. Host time (µs) is
 * the simulation's true time.
 */
import type { SeededRandom } from '../../kernel/random.ts';

/** The rate error of a station's resonator over host time: `skew + wanderAmplitude · sin(2π t / period + phase)`. */
export interface ResonatorModel {
  /** Fixed rate error (0.003 = the device counts 0.3 % too fast). Ceramic resonators: up to ±0.5 %. */
  readonly skew: number;
  /** Amplitude of the slow wander (temperature), as a fraction. */
  readonly wanderAmplitude: number;
  /** Period of the wander, host µs. */
  readonly wanderPeriodUs: number;
  /** Phase of the wander, radians. */
  readonly wanderPhase: number;
}

/** One boot of a station: from `upUs` (the sketch starts, `micros()` = `microsAtUp`) to `downUs`. */
export interface SimulatedBoot {
  /** Host time when the sketch started (for the first boot: when the host started watching). */
  readonly upUs: number;
  /** Host time when the station resets (Infinity for the last boot). */
  readonly downUs: number;
  /** `micros()` at `upUs`: random for the first boot (the station was already running), 0 after a reset. */
  readonly microsAtUp: number;
  /** Boot counter printed in the banner. */
  readonly bootId: number;
  /** False for the first boot: the host joined a running station and saw no banner. */
  readonly banner: boolean;
}

/** A resonator within ±maxSkew with a wander of `wanderAmplitude` over 20–40 minutes. */
export function randomResonator(rng: SeededRandom, maxSkew = 0.005, wanderAmplitude = 10e-6): ResonatorModel {
  return {
    skew: rng.uniform(-maxSkew, maxSkew),
    wanderAmplitude,
    wanderPeriodUs: rng.uniform(20, 40) * 60e6,
    wanderPhase: rng.uniform(0, 2 * Math.PI),
  };
}

/** Device µs counted between host times `from` and `to` (the integral of 1 + rate error). */
export function deviceElapsedUs(r: ResonatorModel, from: number, to: number): number {
  const w = (2 * Math.PI) / r.wanderPeriodUs;
  const wander = (r.wanderAmplitude / w) * (Math.cos(w * from + r.wanderPhase) - Math.cos(w * to + r.wanderPhase));
  return (to - from) * (1 + r.skew) + wander;
}

/** What `micros()` returns at host time `hostUs` during `boot`: 4 µs steps, wrapping at 2^32. */
export function simulatedMicros(r: ResonatorModel, boot: SimulatedBoot, hostUs: number): number {
  const us = boot.microsAtUp + deviceElapsedUs(r, boot.upUs, hostUs);
  return (Math.floor(us / 4) * 4) % 2 ** 32;
}

/** Timing of the simulated restarts. */
export interface RestartModel {
  /** Mean time between restarts (µs, exponential); Infinity for none. */
  readonly meanIntervalUs: number;
  /** Time from reset to the sketch starting (the bootloader waits 1.5–2 s on a Uno/Nano), µs. */
  readonly bootloaderUs: readonly [number, number];
}

/** Plans a station's boots over host time [0, durationUs]. */
export function planBoots(rng: SeededRandom, durationUs: number, restarts: RestartModel): SimulatedBoot[] {
  const boots: SimulatedBoot[] = [];
  let up = 0;
  let microsAtUp = Math.floor(rng.uniform(0, 2 ** 32));
  let bootId = rng.int(1000);
  let banner = false;
  for (;;) {
    const down = Number.isFinite(restarts.meanIntervalUs) ? up + rng.exponential(restarts.meanIntervalUs) : Infinity;
    if (down >= durationUs) {
      boots.push({ upUs: up, downUs: Infinity, microsAtUp, bootId, banner });
      return boots;
    }
    boots.push({ upUs: up, downUs: down, microsAtUp, bootId, banner });
    up = down + rng.uniform(restarts.bootloaderUs[0], restarts.bootloaderUs[1]);
    microsAtUp = 0;
    bootId = (bootId + 1) % 2 ** 32;
    banner = true;
  }
}

/** The boot running at host time `hostUs`, or undefined while the station is down (in its bootloader). */
export function bootAt(boots: readonly SimulatedBoot[], hostUs: number): SimulatedBoot | undefined {
  return boots.find((b) => b.upUs <= hostUs && hostUs < b.downUs);
}
