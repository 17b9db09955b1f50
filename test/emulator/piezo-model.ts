/**
 * The optional piezo "slap" sensor on D3 = PD3 (INT1), as hardware/wiring.md builds it: a piezo disc under
 * the pad into an LM393 comparator whose open-collector output pulls SLAP low while the disc's voltage is
 * above the trimpot's threshold, with the MCU's pull-up (and an optional 10 kΩ one) to 5 V.
 *
 * - `impactAt(simUs, options)`: an impact at that simulated time. The comparator output falls after its
 *   response time (LM393: ~1.3 µs for a large overdrive; `responseUs`, default 1), then follows the disc's
 *   ring-down: low for half a period, high for half a period, at `ringHz` (default 4 kHz, a 27 mm brass disc
 *   glued to a plate), for `ringUs` (default 6 ms), and ends high.
 * - `fitted: false`: nothing is connected to D3. avr8js does not model pull-ups, so the model does: while the
 *   firmware has the pin as an input with PORTD3 = 1 (INPUT_PULLUP) it reads high; without the pull-up the
 *   input floats and picks up mains hum and noise — the model toggles it at random every 50-500 µs, which a
 *   firmware that forgot the pull-up would report as slaps.
 *
 * Every falling edge the model drives is recorded (`edges`), with its simulated time: the comparator's, or
 * with no sensor fitted the floating input's (before the firmware's pull-up is on, at boot).
 */
import type { AvrRunner, Mcu } from './avr-runner.ts';
import { SeededRandom } from '../../controller/kernel/random.ts';

const PIN = 3; // PD3
const PORTD = 0x2b;
const DDRD = 0x2a;

export interface PiezoOptions {
  /** False: no sensor on D3 (the pin floats unless the firmware pulls it up). Default true. */
  readonly fitted?: boolean;
  /** Seed of the floating-input noise. */
  readonly seed?: number;
}

export interface ImpactOptions {
  /** Comparator response time after the impact (µs). Default 1. */
  readonly responseUs?: number;
  /** Ring-down frequency while the disc stays above the threshold (Hz). Default 4000. */
  readonly ringHz?: number;
  /** How long the ring-down keeps crossing the threshold (µs). Default 6000. */
  readonly ringUs?: number;
}

export class PiezoModel {
  /** Falling edges of the comparator output (simulated µs), the first of each impact included. */
  readonly edges: number[] = [];
  /** Simulated times of the impacts (`impactAt`). */
  readonly impactsUs: number[] = [];

  private readonly runner: AvrRunner;
  private readonly fitted: boolean;
  private readonly random: () => number;
  private mcu: Mcu | undefined;
  /** The comparator output: true = not pulling down. */
  private released = true;
  private floatLevel = true;

  constructor(runner: AvrRunner, options: PiezoOptions = {}) {
    this.runner = runner;
    this.fitted = options.fitted ?? true;
    const generator = new SeededRandom(options.seed ?? 3);
    this.random = () => generator.next();
    runner.onAttach((mcu) => {
      this.mcu = mcu;
      mcu.portD.addListener(() => {
        if (mcu === this.mcu) this.drive();
      });
      this.drive();
    });
    if (!this.fitted) this.scheduleNoise();
  }

  /** An impact at simulated time `atUs` (see the class comment). */
  impactAt(atUs: number, options: ImpactOptions = {}): void {
    if (!this.fitted) throw new Error('no slap sensor fitted');
    const start = atUs + (options.responseUs ?? 1);
    const half = 1e6 / (options.ringHz ?? 4000) / 2;
    const end = start + (options.ringUs ?? 6000);
    this.impactsUs.push(atUs);
    for (let t = start; t < end; t += 2 * half) {
      this.runner.at(t, () => {
        this.setReleased(false);
      });
      this.runner.at(t + half, () => {
        this.setReleased(true);
      });
    }
  }

  private setReleased(released: boolean): void {
    if (released === this.released) return;
    this.released = released;
    if (!released) this.edges.push(this.runner.nowUs);
    this.drive();
  }

  private scheduleNoise(): void {
    this.runner.after(50 + this.random() * 450, () => {
      this.floatLevel = !this.floatLevel;
      this.drive();
      this.scheduleNoise();
    });
  }

  /** The level D3 reads: the comparator pulling down, else the pull-up (if on), else a floating input. */
  private drive(): void {
    const mcu = this.mcu;
    if (!mcu) return;
    const data = mcu.cpu.data;
    const input = ((data[DDRD] ?? 0) & (1 << PIN)) === 0;
    const pullUp = input && ((data[PORTD] ?? 0) & (1 << PIN)) !== 0;
    let level: boolean;
    if (this.fitted && !this.released) level = false;
    else if (pullUp) level = true;
    else if (this.fitted) level = true; // the external 10 kΩ pull-up of the sensor board
    else level = this.floatLevel;
    mcu.portD.setPin(PIN, level);
    if (!this.fitted && this.driven && !level) this.edges.push(this.runner.nowUs); // a falling edge of the noise
    this.driven = level;
  }

  private driven = true;
}
