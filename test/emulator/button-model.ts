/**
 * The ZAP button on D2 = PD2 (INT0): a switch to GND with the MCU's internal pull-up, so released reads high
 * and pressed reads low. avr8js does not model pull-ups, so the model drives the pin level itself.
 *
 * Edges happen at exact simulated times (world events of the runner: within one instruction, ≤ 0.25 µs), so
 * the INT0 ISR sees them as a real switch would. A press or release may bounce: `bounceUs` lists the times
 * after the first edge (µs, increasing) at which the contact toggles again; an even number of toggles ends
 * at the new level (an odd number would end at the old one, i.e. a glitch).
 */
import type { AvrRunner, Mcu, Scheduled } from './avr-runner.ts';

const PIN = 2; // PD2

export interface ButtonEdge {
  /** Simulated time of the edge (µs). */
  readonly atUs: number;
  readonly pressed: boolean;
}

export class ButtonModel {
  /** Every edge the model put on the pin, in time order. */
  readonly edges: ButtonEdge[] = [];

  private readonly runner: AvrRunner;
  private mcu: Mcu | undefined;
  private pressedNow = false;
  private readonly scheduled = new Set<Scheduled>();

  constructor(runner: AvrRunner) {
    this.runner = runner;
    runner.onAttach((mcu) => {
      this.mcu = mcu;
      this.drive();
    });
  }

  /** True while the contact is closed. */
  get pressed(): boolean {
    return this.pressedNow;
  }

  /** Closes the contact at simulated time `atUs` (now if past), then bounces as given. */
  pressAt(atUs: number, bounceUs: readonly number[] = []): void {
    this.changeAt(atUs, true, bounceUs);
  }

  /** Opens the contact at simulated time `atUs`, then bounces as given. */
  releaseAt(atUs: number, bounceUs: readonly number[] = []): void {
    this.changeAt(atUs, false, bounceUs);
  }

  /** Sets the contact at `atUs` to `pressed`, toggling again at `atUs + bounceUs[i]`. */
  changeAt(atUs: number, pressed: boolean, bounceUs: readonly number[] = []): void {
    this.setAt(atUs, pressed);
    let level = pressed;
    for (const offset of bounceUs) {
      level = !level;
      this.setAt(atUs + offset, level);
    }
  }

  /** Cancels the edges not yet applied. */
  cancelPending(): void {
    for (const s of this.scheduled) s.cancel();
    this.scheduled.clear();
  }

  private setAt(atUs: number, pressed: boolean): void {
    const handle = this.runner.at(atUs, () => {
      this.scheduled.delete(handle);
      this.pressedNow = pressed;
      this.edges.push({ atUs: this.runner.nowUs, pressed });
      this.drive();
    });
    this.scheduled.add(handle);
  }

  private drive(): void {
    this.mcu?.portD.setPin(PIN, !this.pressedNow);
  }
}
