/**
 * A pin-level model of the HX711 load-cell ADC on DOUT = PD4 (D4) and PD_SCK = PD5 (D5), ported from the host
 * tests' FakeHx711 (firmware/test/fake_devices.cpp) and extended with what the datasheet adds:
 *
 * - Conversions complete every `1 / sps` s (10 SPS with RATE low, 80 SPS with RATE high; any rate can be
 *   configured to shorten tests). A completed conversion pulls DOUT low ("ready") and is latched; while the
 *   host has not started shifting it out, a newer conversion replaces it.
 * - Each SCK rising edge shifts the next bit out on DOUT, MSB first, 24-bit two's complement. Pulses 25-27
 *   select the next conversion's channel and gain (25: A/128, 26: B/32, 27: A/64); the 25th pulls DOUT high.
 * - SCK held high for more than 60 µs powers the chip down; when SCK returns low it powers up again and the
 *   first conversion is ready after the settling time (4 conversion periods).
 * - Diagnostics the tests can assert on: pulses that ran with interrupts enabled (the firmware must clock
 *   with interrupts off, or an ISR could stretch a pulse past 60 µs), power-downs, readouts.
 *
 * The analogue side: `setRaw(counts)` sets the channel-A/128 reading directly; `setGrams(g)` goes through a
 * linear load cell (`zeroCounts + grams * countsPerGram`). Optional Gaussian-free uniform noise of
 * ±`noiseCounts` from a seeded generator (deterministic).
 */
import { PinState } from 'avr8js';
import type { AvrRunner, Mcu } from './avr-runner.ts';
import { SeededRandom } from '../../controller/kernel/random.ts';

const DOUT = 4; // PD4
const SCK = 5; // PD5
const MAX24 = 0x7f_ffff;
const MIN24 = -0x80_0000;
const POWER_DOWN_US = 60;
const SETTLING_PERIODS = 4;

export interface Hx711Options {
  /** Conversions per second (10 or 80 on the real chip; default 10). */
  readonly sps?: number;
  /** Reading with nothing on the pad (channel A, gain 128). Default 84 000. */
  readonly zeroCounts?: number;
  /** Counts per gram of the load cell at gain 128. Default 230 (a 5 kg cell). */
  readonly countsPerGram?: number;
  /** Uniform noise amplitude in counts (default 0). */
  readonly noiseCounts?: number;
  /** Seed of the noise generator. */
  readonly seed?: number;
  /** False: the module is unplugged (DOUT floats high through the MCU's pull-up). */
  readonly connected?: boolean;
}

export class Hx711Model {
  /** Conversions read out completely (24 bits + gain pulse). */
  readouts = 0;
  /** SCK rising edges that happened while the CPU had interrupts enabled. */
  pulsesWithIrqEnabled = 0;
  /** Times SCK stayed high > 60 µs (the chip powered down). */
  powerDowns = 0;
  /** Pulses in the last readout (25, 26 or 27). */
  lastPulseCount = 0;
  /** Simulated times (µs) at which readouts began (first SCK rising edge). */
  readonly readoutStartsUs: number[] = [];

  private readonly runner: AvrRunner;
  private mcu: Mcu | undefined;
  private periodUs: number;
  private zeroCounts: number;
  private countsPerGram: number;
  private noiseCounts: number;
  private readonly random: () => number;
  private connectedNow: boolean;
  private analogCounts: number; // channel A, gain 128, before noise
  private gainPulses = 25; // selects the gain of the next conversion
  private ready = false;
  private poweredDown = false;
  private latched = 0;
  private bit = 0; // rising edges since the conversion became ready
  private sckHigh = false;
  private powerDownTimer: { cancel(): void } | undefined;
  private conversionTimer: { cancel(): void } | undefined;

  constructor(runner: AvrRunner, options: Hx711Options = {}) {
    this.runner = runner;
    this.periodUs = 1_000_000 / (options.sps ?? 10);
    this.zeroCounts = options.zeroCounts ?? 84_000;
    this.countsPerGram = options.countsPerGram ?? 230;
    this.noiseCounts = options.noiseCounts ?? 0;
    const generator = new SeededRandom(options.seed ?? 1);
    this.random = () => generator.next();
    this.connectedNow = options.connected ?? true;
    this.analogCounts = this.zeroCounts;
    runner.onAttach((mcu) => {
      this.attach(mcu);
    });
    this.scheduleConversion(this.periodUs * SETTLING_PERIODS);
  }

  /** Sets the load: the reading becomes `zeroCounts + grams * countsPerGram` from the next conversion on. */
  setGrams(grams: number): void {
    this.analogCounts = Math.round(this.zeroCounts + grams * this.countsPerGram);
  }

  /** Sets the channel-A/128 reading in counts directly (clamped to 24 bits). */
  setRaw(counts: number): void {
    this.analogCounts = Math.round(counts);
  }

  /** The reading a conversion would give now, without noise. */
  get rawCounts(): number {
    return this.analogCounts;
  }

  /** The load cell's figures, for computing expectations. */
  get calibration(): { readonly zeroCounts: number; readonly countsPerGram: number } {
    return { zeroCounts: this.zeroCounts, countsPerGram: this.countsPerGram };
  }

  setNoise(counts: number): void {
    this.noiseCounts = counts;
  }

  /** Conversions per second from the next conversion on. */
  setSps(sps: number): void {
    this.periodUs = 1_000_000 / sps;
  }

  /** Plugs or unplugs the module; an unplugged HX711 never signals ready (the firmware raises FAULT+ scale). */
  setConnected(connected: boolean): void {
    this.connectedNow = connected;
    this.ready = false;
    this.bit = 0;
    this.setDout(true);
    if (connected) this.scheduleConversion(this.periodUs * SETTLING_PERIODS);
    else this.conversionTimer?.cancel();
  }

  get connected(): boolean {
    return this.connectedNow;
  }

  private attach(mcu: Mcu): void {
    this.mcu = mcu;
    this.sckHigh = false;
    this.setDout(!this.ready || !this.connectedNow);
    mcu.portD.addListener(() => {
      this.onPortD(mcu);
    });
  }

  private setDout(high: boolean): void {
    this.mcu?.portD.setPin(DOUT, high);
  }

  private scheduleConversion(delayUs: number): void {
    this.conversionTimer?.cancel();
    this.conversionTimer = this.runner.after(delayUs, () => {
      this.convert();
    });
  }

  private convert(): void {
    if (!this.connectedNow || this.poweredDown) return;
    this.scheduleConversion(this.periodUs);
    if (this.bit > 0 && this.bit < 25) return; // being shifted out: this result is lost
    const noise = this.noiseCounts === 0 ? 0 : Math.round((this.random() * 2 - 1) * this.noiseCounts);
    let value: number;
    if (this.gainPulses === 26) value = 0; // channel B: nothing connected
    else value = Math.round((this.analogCounts + noise) * (this.gainPulses === 27 ? 0.5 : 1));
    this.latched = Math.max(MIN24, Math.min(MAX24, value)) & 0xff_ffff;
    this.ready = true;
    this.bit = 0;
    this.setDout(false);
  }

  private onPortD(mcu: Mcu): void {
    if (mcu !== this.mcu) return; // a listener of an MCU instance replaced by a reset
    const high = mcu.portD.pinState(SCK) === PinState.High;
    if (high === this.sckHigh) return;
    this.sckHigh = high;
    const now = this.runner.nowUs;
    if (high) {
      if (mcu.cpu.interruptsEnabled) this.pulsesWithIrqEnabled++;
      this.powerDownTimer = this.runner.after(POWER_DOWN_US + 0.1, () => {
        this.powerDown();
      });
      this.onRisingEdge(now);
    } else {
      this.powerDownTimer?.cancel();
      if (this.poweredDown) {
        this.poweredDown = false; // SCK low again: power up, settle, convert
        this.scheduleConversion(this.periodUs * SETTLING_PERIODS);
      }
    }
  }

  private powerDown(): void {
    if (!this.sckHigh || this.poweredDown) return;
    this.poweredDown = true;
    this.powerDowns++;
    this.ready = false;
    this.bit = 0;
    this.conversionTimer?.cancel();
    this.setDout(true);
  }

  private onRisingEdge(nowUs: number): void {
    if (!this.connectedNow || this.poweredDown) return;
    if (this.bit === 0 && !this.ready) return; // clocking without a conversion: nothing happens
    if (this.bit === 0) this.readoutStartsUs.push(nowUs);
    if (this.bit < 24) this.setDout(((this.latched >> (23 - this.bit)) & 1) === 1);
    this.bit++;
    if (this.bit === 25) {
      this.setDout(true); // conversion consumed; DOUT high until the next one
      this.ready = false;
      this.readouts++;
    }
    if (this.bit >= 25 && this.bit <= 27) {
      this.gainPulses = this.bit;
      this.lastPulseCount = this.bit;
    }
  }
}
