/**
 * One buzzer of the hub as a station: its button's raw readings → debounced, host-stamped events, its lamp,
 * its health. The hub owns the board; a station owns its settle timer and counters.
 */
import type { Led } from 'johnny-five';
import { NO_ERRORS, type ErrorCounters, type EventTime, type SensorEvent, type StationHealth } from '../interface.ts';
import { EdgeDebouncer } from './edge-debouncer.ts';
import type { HubButtonConfig } from './hub-config.ts';

/** The `button` name of every hub event: a hub station is one buzzer with one button. */
export const HUB_BUTTON = 'buzzer';

type Counters = { -readonly [K in keyof ErrorCounters]: ErrorCounters[K] };

export class HubStation {
  online = false;
  firmware: string | undefined;
  port: string | undefined;
  lastSeenMs: number | undefined;
  led: Led | undefined;
  /** The raw reading that means "pressed" (0 with the pull-up), from the johnny-five Button. */
  pressedValue = 0;
  readonly errors: Counters = { ...NO_ERRORS };
  private readonly debouncer = new EdgeDebouncer<EventTime>();
  private lastRaw: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly config: HubButtonConfig,
    private readonly debounceMs: number,
    private readonly emit: (event: SensorEvent) => void,
  ) {}

  get id(): string {
    return this.config.id;
  }

  /**
   * A raw reading of the button's pin. Firmata reports a whole port (8 pins) whenever any of its inputs
   * changes, so most readings repeat the last value; only a change is an edge. `stamp` is called only then.
   */
  reading(raw: number, pressed: boolean, stamp: () => EventTime): void {
    if (raw === this.lastRaw) return;
    const first = this.lastRaw === undefined;
    this.lastRaw = raw;
    if (first) {
      // Firmata reports the port's state when reporting is switched on. A button already held then was
      // pressed at an unknown time: no stamp would be honest, so it is a baseline; its release and next
      // press are reported.
      this.debouncer.baseline(pressed);
      return;
    }
    this.debouncer.edge(pressed, stamp());
    if (!this.debouncer.settling) return;
    // Every edge restarts the quiet period the debounce waits for.
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settle();
    }, this.debounceMs);
  }

  private settle(): void {
    const change = this.debouncer.settle();
    if (change === undefined) return; // a glitch: the input went back to its old level
    const base = { station: this.id, time: change.stamp, button: HUB_BUTTON };
    this.emit(change.pressed ? { ...base, kind: 'button-pressed' } : { ...base, kind: 'button-released' });
  }

  /** Drops a pending settle (stop, or the board went away: a change it never confirmed is not reported). */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.debouncer.abandon();
    this.lastRaw = undefined;
  }

  health(): StationHealth {
    return {
      station: this.id,
      kind: 'hub',
      online: this.online,
      ...(this.firmware === undefined ? {} : { firmware: this.firmware }),
      ...(this.port === undefined ? {} : { port: this.port }),
      ...(this.lastSeenMs === undefined ? {} : { lastSeenMs: this.lastSeenMs }),
      errors: { ...this.errors },
    };
  }
}
