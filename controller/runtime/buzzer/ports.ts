/**
 * What a buzzer table needs from the outside world. The composition root plugs in the SQLite event log, the
 * MQTT channel, the hardware's lamps and the hub's piezo; tests plug in memory fakes.
 */
import type { BuzzerAction, BuzzerEvent, BuzzerSetup, BuzzerView } from '../../buzzer/index.ts';
import type { SensorEvent } from '../../hardware/interface.ts';

/** The append-only log (principle 8): every press and every decision is recorded before it is published. */
export interface BuzzerLog {
  /** A sensor event exactly as the hardware reported it (raw device µs, epoch, mapped µs, uncertainty); its seq. */
  sensor(tableId: string, event: SensorEvent): number;
  /** A new session (scores and question numbers start again) with the set-up it runs. */
  session(tableId: string, setup: BuzzerSetup): void;
  /** An applied action (presses carry their full time, so the log replays to the same decisions). */
  action(tableId: string, action: BuzzerAction): void;
  /** An action the logic refused (a request that changed nothing), for the record. */
  refused(tableId: string, action: BuzzerAction, code: string, message: string): void;
  commit(): void;
}

export interface BuzzerPublisher {
  state(tableId: string, view: BuzzerView): void;
  events(tableId: string, events: readonly BuzzerEvent[]): void;
}

/** The winner's beep (the buzzer hub's piezo); absent without one. */
export interface Sound {
  beep(hz: number, ms: number): void;
}
