/**
 * One buzzer table: button presses from seat stations and hub buttons in, the pure buzzer logic applied,
 * everything logged before it is published, lamps and sound out. The logic asks for timers through its state
 * (`timers`: reading timer, arbitration window, auto-reset); this runtime schedules them and feeds the
 * resulting actions back with the time they ran.
 *
 * Order of work for every input (principle 8): log the input → apply → log the action → commit → publish.
 */
import {
  applyBuzzer, buzzerLamps, buzzerView, initialState, nextLampChangeUs,
  type ActionTime, type BuzzerAction, type BuzzerEvent, type BuzzerSetup, type BuzzerState, type PressTime,
} from '../../buzzer/index.ts';
import type { Clock, LampPattern, SensorEvent, StationId } from '../../hardware/interface.ts';
import { finiteUncertaintyUs } from '../../kernel/clock-bounds.ts';
import { reject, type Result } from '../../kernel/result.ts';
import type { Lamps, Scheduler } from '../ports.ts';
import type { BuzzerLog, BuzzerPublisher, Sound } from './ports.ts';

const BEEP = { hz: 440, ms: 400 } as const;

export interface BuzzerRuntimeOptions {
  readonly tableId: string;
  readonly setup: BuzzerSetup;
  /** The host's button: arms when nothing is armed, otherwise resets. */
  readonly hostStation?: StationId;
  /** Beep on a winner or a tie (when a sound port exists). */
  readonly sound: boolean;
}

export interface BuzzerRuntimeDeps {
  readonly log: BuzzerLog;
  readonly publisher: BuzzerPublisher;
  readonly lamps: Lamps;
  readonly scheduler: Scheduler;
  readonly clock: Clock;
  readonly sound?: Sound;
}

export type BuzzerResult = Result;

type TimerKind = 'live' | 'decide' | 'auto-reset' | 'lamps';

export class BuzzerRuntime {
  private state: BuzzerState;
  private readonly contestantOfStation: ReadonlyMap<StationId, string>;
  private readonly timers = new Map<TimerKind, { readonly dueUs: number; readonly cancel: () => void }>();
  private pending: BuzzerEvent[] = [];
  private lampsShown: Record<string, LampPattern> = {};
  private readonly listeners = new Set<(state: BuzzerState, events: readonly BuzzerEvent[]) => void>();
  private stopped = false;

  constructor(readonly options: BuzzerRuntimeOptions, private readonly deps: BuzzerRuntimeDeps) {
    this.state = initialState(options.setup, this.now());
    this.contestantOfStation = new Map(options.setup.contestants.map((c) => [c.station, c.id]));
  }

  /** Continues a session from its logged actions, or starts (and logs) a new one. */
  start(recovered?: readonly BuzzerAction[]): void {
    this.stopped = false;
    if (recovered === undefined) {
      this.deps.log.session(this.options.tableId, this.options.setup);
      this.deps.log.commit();
    } else {
      for (const action of recovered) {
        const outcome = applyBuzzer(this.state, action);
        if (outcome.ok) this.state = outcome.state;
      }
    }
    this.publish();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  /** Starts a new session: scores and question numbers from zero (the log keeps the old one). */
  newSession(): BuzzerResult {
    this.state = initialState(this.options.setup, this.now());
    this.deps.log.session(this.options.tableId, this.options.setup);
    this.deps.log.commit();
    this.publish();
    return { ok: true };
  }

  /** The current logic state (tests, bots; never published as such). */
  get current(): BuzzerState {
    return this.state;
  }

  /** Called after every change with the new state and the events it produced (bots, benchmarks). */
  onChange(listener: (state: BuzzerState, events: readonly BuzzerEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A sensor event from the hardware. Logged first, whatever it turns out to mean. */
  handleSensor(event: SensorEvent): void {
    const sensorSeq = this.deps.log.sensor(this.options.tableId, event);
    if (event.kind !== 'button-pressed') {
      this.deps.log.commit();
      return;
    }
    if (event.station === this.options.hostStation) {
      const armed = this.state.phase === 'armed' || this.state.phase === 'reading' || this.state.phase === 'judging';
      this.apply(armed ? { type: 'reset', at: this.now(), by: `button ${event.station}` } : { type: 'arm', at: this.now(), by: `button ${event.station}` });
      return;
    }
    const contestant = this.contestantOfStation.get(event.station);
    if (contestant === undefined) {
      this.deps.log.commit();
      return;
    }
    const t = event.time;
    const time: PressTime = {
      source: t.source, epoch: t.epoch, deviceUs: t.deviceUs, hostUs: t.hostUs,
      // Unsynced: Infinity, which JSON and the log cannot carry; the kernel's 1000 s ties with every press, as it must.
      uncertaintyUs: finiteUncertaintyUs(t.uncertaintyUs),
      beforeUs: t.beforeUs, afterUs: t.afterUs,
      ...(t.rawUs === undefined ? {} : { rawUs: t.rawUs }),
    };
    this.apply({ type: 'press', at: this.now(), contestant, station: event.station, time, sensorSeq });
  }

  arm(by: string): BuzzerResult {
    return this.apply({ type: 'arm', at: this.now(), by });
  }

  reset(by: string): BuzzerResult {
    return this.apply({ type: 'reset', at: this.now(), by });
  }

  mark(correct: boolean, by: string, contestant?: string): BuzzerResult {
    return this.apply({ type: 'mark', at: this.now(), by, correct, ...(contestant === undefined ? {} : { contestant }) });
  }

  score(entrant: string, delta: number, by: string, reason?: string): BuzzerResult {
    return this.apply({ type: 'score', at: this.now(), by, entrant, delta, ...(reason === undefined ? {} : { reason }) });
  }

  private now(): ActionTime {
    return { hostUs: this.deps.clock.nowUs(), wallMs: this.deps.clock.wallMs() };
  }

  private apply(action: BuzzerAction): BuzzerResult {
    const outcome = applyBuzzer(this.state, action);
    if (!outcome.ok) {
      this.deps.log.refused(this.options.tableId, action, outcome.code, outcome.message);
      this.deps.log.commit();
      return reject(outcome.code, outcome.message);
    }
    this.deps.log.action(this.options.tableId, action);
    this.deps.log.commit();
    this.state = outcome.state;
    this.pending.push(...outcome.events);
    if (this.options.sound && outcome.events.some((e) => e.type === 'WINNER' || e.type === 'TIE')) this.deps.sound?.beep(BEEP.hz, BEEP.ms);
    this.publish();
    for (const listener of this.listeners) listener(this.state, outcome.events);
    return { ok: true };
  }

  private publish(): void {
    if (this.stopped) return;
    if (this.pending.length > 0) {
      this.deps.publisher.events(this.options.tableId, this.pending);
      this.pending = [];
    }
    this.deps.publisher.state(this.options.tableId, buzzerView(this.state));
    this.setLamps();
    this.reconcileTimers();
  }

  private setLamps(): void {
    const lamps = buzzerLamps(this.state, this.deps.clock.nowUs());
    for (const c of this.options.setup.contestants) {
      const pattern = lamps[c.id] ?? 'off';
      if (this.lampsShown[c.station] !== pattern) {
        this.lampsShown[c.station] = pattern;
        this.deps.lamps.setLamp(c.station, pattern);
      }
    }
  }

  /** Keeps exactly the timers the state asks for (a changed due time replaces the old timer). */
  private reconcileTimers(): void {
    const nowUs = this.deps.clock.nowUs();
    const wanted: [TimerKind, number | null][] = [
      ['live', this.state.timers.liveAtUs], ['decide', this.state.timers.decideAtUs],
      ['auto-reset', this.state.timers.autoResetAtUs], ['lamps', nextLampChangeUs(this.state, nowUs)],
    ];
    for (const [kind, dueUs] of wanted) {
      const current = this.timers.get(kind);
      if (current?.dueUs === dueUs) continue;
      current?.cancel();
      this.timers.delete(kind);
      if (dueUs === null) continue;
      const cancel = this.deps.scheduler.after(Math.max(0, (dueUs - nowUs) / 1000), () => {
        this.timers.delete(kind);
        this.fire(kind);
      });
      this.timers.set(kind, { dueUs, cancel });
    }
  }

  private fire(kind: TimerKind): void {
    if (this.stopped) return;
    if (kind === 'lamps') {
      this.setLamps();
      this.reconcileTimers();
      return;
    }
    this.apply({ type: kind, at: this.now() });
  }
}
