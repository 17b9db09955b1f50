/**
 * Simulated contestants for a buzzer table on the simulated hardware, so `zaptable start` with a buzzer
 * configuration demos the whole path: after each arm, every bot presses its station's button (a real
 * `BTN+` line through the real serial driver) after a human-like reaction time — 180 ms plus a log-normal
 * spread around ~250 ms, some slower, some not at all — and now and then one jumps the gun (a false start).
 * When every seat is a bot, a bot host runs the quiz too: arms, marks the answer (right 70 % of the time),
 * and arms the next question — until a person hosts: the first arm, mark, reset or score by anyone else sends
 * the bot host away for good (its pending steps are cancelled), so it never overtakes a human host.
 */
import { SeededRandom } from '../../kernel/random.ts';
import type { SimulatedTable } from '../../hardware/simulated/index.ts';
import type { BuzzerEvent, BuzzerState } from '../../buzzer/index.ts';
import type { BuzzerRuntime } from '../../runtime/buzzer/buzzer-runtime.ts';

export interface BuzzerBotsOptions {
  readonly table: SimulatedTable;
  readonly runtime: BuzzerRuntime;
  /** The stations bots press. */
  readonly stations: readonly string[];
  /** 1 = real time; 10 = ten times faster. */
  readonly speed: number;
  readonly seed: string | number;
}

/** A human reaction time in ms: 180 ms floor plus a log-normal spread (median ~250 ms more). */
export function reactionMs(rng: SeededRandom): number {
  const u1 = Math.max(rng.next(), 1e-12);
  const u2 = rng.next();
  const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return 180 + Math.exp(Math.log(250) + 0.45 * normal);
}

export class BuzzerBots {
  private readonly rng: SeededRandom;
  private readonly timers = new Set<NodeJS.Timeout>();
  private off: (() => void) | undefined;
  private hostIsBot: boolean;
  private readonly hostTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: BuzzerBotsOptions) {
    this.rng = new SeededRandom(`buzzer-bots:${String(options.seed)}`);
    this.hostIsBot = options.stations.length === options.runtime.options.setup.contestants.length;
  }

  start(): void {
    this.off = this.options.runtime.onChange((state, events) => {
      this.react(state, events);
    });
    if (this.hostIsBot) this.host(2000, () => this.options.runtime.arm('bot host'));
  }

  /** Whether the bot host still runs the quiz (false once a person has hosted). */
  get botHosting(): boolean {
    return this.hostIsBot;
  }

  /** A bot host's step, cancelled when a person takes over. */
  private host(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.hostTimers.delete(t);
      if (this.hostIsBot) fn();
    }, ms / this.options.speed);
    t.unref();
    this.timers.add(t);
    this.hostTimers.add(t);
  }

  stop(): void {
    this.off?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms / this.options.speed);
    t.unref();
    this.timers.add(t);
  }

  private press(station: string): void {
    if (this.options.table.names().includes(station)) this.options.table.pressButton(station, { holdMs: 120 });
  }

  private react(state: BuzzerState, events: readonly BuzzerEvent[]): void {
    const human = events.some((e) => (e.type === 'BUZZER_ARMED' || e.type === 'MARKED' || (e.type === 'RESET' && !e.auto))
      && e.by !== 'bot host');
    if (human && this.hostIsBot) {
      this.hostIsBot = false;
      for (const t of this.hostTimers) {
        clearTimeout(t);
        this.timers.delete(t);
      }
      this.hostTimers.clear();
    }
    for (const e of events) {
      if (e.type === 'READING_STARTED') {
        // The eager one sometimes buzzes while the question is still being read.
        for (const station of this.options.stations) {
          if (this.rng.next() < 0.05) this.later(this.rng.next() * (e.readingMs * 0.9), () => {
            this.press(station);
          });
        }
      }
      if (e.type === 'BUZZER_ARMED') {
        for (const station of this.options.stations) {
          if (this.rng.next() < 0.85) this.later(reactionMs(this.rng), () => {
            this.press(station);
          });
        }
      }
      if (!this.hostIsBot) continue;
      if (e.type === 'WINNER' || e.type === 'TIE') {
        const who = state.decision?.winners[0];
        const correct = this.rng.next() < 0.7;
        this.host(1500, () => this.options.runtime.mark(correct, 'bot host', who));
      }
      if ((e.type === 'MARKED' && e.correct) || (e.type === 'RESET' && !e.auto)) this.host(2500, () => this.options.runtime.arm('bot host'));
    }
    // Nobody buzzed (or everyone is locked out): the bot host moves on.
    if (this.hostIsBot && events.some((e) => e.type === 'BUZZER_ARMED')) {
      const question = state.question;
      const round = state.round;
      this.host(4000, () => {
        const now = this.options.runtime.current;
        if (now.question === question && now.round === round && now.phase === 'armed') this.options.runtime.reset('bot host');
      });
    }
  }
}
