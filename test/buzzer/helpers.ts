/** Builders for the buzzer logic tests: a set-up, actions at given controller times, and a runner. */
import {
  applyBuzzer, BUZZER_DEFAULTS, initialState,
  type BuzzerAction, type BuzzerEvent, type BuzzerSetup, type BuzzerState, type PressTime,
} from '../../controller/buzzer/index.ts';

export const WALL0 = 1_760_000_000_000;

export function at(hostUs: number) {
  return { hostUs, wallMs: WALL0 + hostUs / 1000 };
}

export function setup(over: Partial<BuzzerSetup> = {}): BuzzerSetup {
  const contestants = over.contestants ?? ['ana', 'ben', 'cy'].map((id, i) => ({
    id, name: id.toUpperCase(), colour: null, station: `seat-${i + 1}`, team: null,
  }));
  return { ...BUZZER_DEFAULTS, contestants, teams: [], ...over };
}

/** A device-stamped press: mapped time `hostUs` ± `u`, device time `deviceUs` on the contestant's station. */
export interface PressOptions {
  readonly u?: number;
  readonly arriveUs?: number;
  readonly deviceUs?: number;
  readonly station?: string;
  /** The button's interrupt latency before the stamp (µs). Default 80 (the serial driver's default). */
  readonly beforeUs?: number;
}

export function devicePress(contestant: string, hostUs: number, options: PressOptions = {}): BuzzerAction {
  const time: PressTime = {
    source: 'device', epoch: 1, deviceUs: options.deviceUs ?? hostUs - 500, rawUs: (options.deviceUs ?? hostUs - 500) % 2 ** 32,
    hostUs, uncertaintyUs: options.u ?? 100, beforeUs: options.beforeUs ?? 80, afterUs: 0,
  };
  const index = ['ana', 'ben', 'cy', 'dee'].indexOf(contestant) + 1;
  return { type: 'press', at: at(options.arriveUs ?? hostUs + 8000), contestant, station: options.station ?? `seat-${index}`, time };
}

export class Session {
  state: BuzzerState;
  readonly events: BuzzerEvent[] = [];

  constructor(s: BuzzerSetup = setup()) {
    this.state = initialState(s, at(0));
  }

  /** Applies an action; throws on a rejection (use `try` for those). */
  do(action: BuzzerAction): BuzzerEvent[] {
    const out = applyBuzzer(this.state, action);
    if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
    this.state = out.state;
    this.events.push(...out.events);
    return [...out.events];
  }

  try(action: BuzzerAction) {
    return applyBuzzer(this.state, action);
  }

  arm(us: number): BuzzerEvent[] {
    return this.do({ type: 'arm', at: at(us), by: 'host' });
  }

  decide(): BuzzerEvent[] {
    const due = this.state.timers.decideAtUs;
    if (due === null) throw new Error('no decision due');
    return this.do({ type: 'decide', at: at(due) });
  }
}
