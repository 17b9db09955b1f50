/**
 * One table: sensor events and referee requests in, engine actions applied, everything logged before it is
 * published, public views and events out, lamps set. The constructor only assigns; `start` creates or
 * recovers the game. All I/O goes through the ports (ports.ts), so tests drive it with fakes.
 *
 * Order of work for every input (principle 8): log the input → apply → log the action → commit → publish.
 */
import type { Clock, EventTime, LampPattern, SensorEvent, StationId } from '../hardware/interface.ts';
import { reject, type Result } from '../kernel/result.ts';
import { PUBLIC } from '../rules/common/viewer.ts';
import type { AnyEngine, BaseAction, GameId } from '../rules/engine.ts';
import { getEngine } from '../rules/games.ts';
import type { QueuedPlay, TableGame } from './games/table-game.ts';
import type { Intent } from './intents.ts';
import type { GameInfo, Lamps, PendingEvent, RuntimeEvent, RuntimeLog, RuntimePublisher, Scheduler } from './ports.ts';
import { emptyPad, updatePads, type Pads } from './pads/pad-state.ts';

/** How long a seat's lamp flashes `error` after its play was refused. */
const REFUSED_FLASH_MS = 2000;

export interface TableRuntimeOptions {
  readonly tableId: string;
  readonly game: GameId;
  /** Player ids in seat order. */
  readonly players: readonly string[];
  /** Station id → player; stations not listed (a pile station) are not seats. */
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  /** Engine options (without players). */
  readonly rules: Readonly<Record<string, unknown>>;
  /** Seed of the next new game (called once per game; e.g. a counter or a random source). */
  readonly nextSeed: () => number | string;
  /** How long plays are collected before they are applied in device-time order (ZIP-45). */
  readonly arbitrationWindowMs: number;
  readonly tableGame: TableGame;
}

export interface TableRuntimeDeps {
  readonly log: RuntimeLog;
  readonly publisher: RuntimePublisher;
  readonly lamps: Lamps;
  readonly scheduler: Scheduler;
  readonly clock: Clock;
}

/** A game to continue after a restart, rebuilt from the log (setup + actions in force). */
export interface RecoveredGame {
  readonly gameId: string;
  readonly config: GameInfo['config'];
  readonly seed: number | string;
  readonly state: unknown;
}

export type RuntimeResult = Result<{ readonly data?: unknown }>;

/** A refusal as it may leave the process (the engine's `publicRejection`), with the action's type. */
export interface PublicRefusalOf {
  readonly action: string;
  readonly code: string;
  readonly message: string;
}

/**
 * What one input came to, for whoever waits for it (the simulator panel's answer: `watchOutcomes`). A sensor
 * event that queued a play is followed by a `plays` outcome once the arbitration window has closed.
 */
export interface InputOutcome {
  readonly cause:
    | { readonly kind: 'sensor'; readonly event: SensorEvent }
    | { readonly kind: 'plays'; readonly plays: readonly { readonly station: StationId; readonly player: string }[] };
  /** Everything the input published, engine events unfiltered: a watcher filters them like the publisher. */
  readonly events: readonly PendingEvent[];
  /** The engine's refusals of actions the input led to, as they may be published. */
  readonly refusals: readonly PublicRefusalOf[];
  /** The input queued a play for the arbitration window (a `plays` outcome follows). */
  readonly queued: boolean;
  /** The game's state changed. */
  readonly changed: boolean;
}

export class TableRuntime {
  private readonly engine: AnyEngine;
  private state: unknown;
  private gameId = '';
  /** The game ended in the log (won, or over): later rows are logged between games, not against it. */
  private gameEnded = false;
  private info: GameInfo | undefined;
  private pads: Pads = {};
  private removedStations = new Set<StationId>();
  private pendingEvents: PendingEvent[] = [];
  private queuedPlays: QueuedPlay[] = [];
  private cancelBatch: (() => void) | undefined;
  private cancelTimer: (() => void) | undefined;
  /** The state the game's timer was armed for: events that change nothing must not re-arm it. */
  private timerArmedFor: unknown;
  private lampsShown: Record<string, LampPattern | undefined> = {};
  /** Stations flashing `error` for a refused play, with the cancel function of their timer. */
  private readonly flashing = new Map<StationId, () => void>();
  /** The state last published (by reference: engine states are immutable). */
  private publishedState: unknown;
  /** What the input being handled has produced so far, while someone watches outcomes. */
  private capture: { events: PendingEvent[]; refusals: PublicRefusalOf[] } | undefined;
  private readonly watchers = new Set<(outcome: InputOutcome) => void>();

  /** Wall clock minus monotonic clock at construction, ms (see nowMs). */
  private readonly wallOffsetMs: number;

  constructor(readonly options: TableRuntimeOptions, private readonly deps: TableRuntimeDeps) {
    this.engine = getEngine(options.game);
    this.wallOffsetMs = deps.clock.wallMs() - deps.clock.nowUs() / 1000;
  }

  /** Continues a recovered game, or starts a new one. Throws only for a configuration the engine refuses. */
  start(recovered?: RecoveredGame): void {
    if (recovered) {
      this.state = recovered.state;
      this.gameId = recovered.gameId;
      this.gameEnded = this.engine.result(recovered.state).over;
      this.info = { tableId: this.options.tableId, game: this.options.game, config: recovered.config, seed: recovered.seed };
      // A timed action the game was waiting for (a Killer window's deadline, an ORACLE announcement) is due
      // again: timers do not survive a restart, the state that asks for them does.
      this.armTimer();
      this.publish();
      return;
    }
    const started = this.newGame({});
    if (!started.ok) throw new Error(`cannot start table ${this.options.tableId}: ${started.code}: ${started.message}`);
  }

  stop(): void {
    for (const cancel of this.flashing.values()) cancel();
    this.flashing.clear();
    this.cancelBatch?.();
    this.cancelTimer?.();
    this.cancelBatch = undefined;
    this.cancelTimer = undefined;
    this.timerArmedFor = undefined;
  }

  /** Stops the timers and, if a game is running, records it as abandoned (a new game or a new table set-up follows). */
  retire(): void {
    this.stop();
    if (this.gameId !== '' && !this.engine.result(this.state).over) {
      this.deps.log.endGame(this.gameId, { abandoned: true, ...this.engine.result(this.state) });
      this.deps.log.commit();
    }
    this.gameId = '';
  }

  /** The public view, as published. */
  publicView(): unknown {
    return this.engine.view(this.state, PUBLIC);
  }

  /** The raw engine state (for the composition root's bots and tests; never published). */
  engineState(): unknown {
    return this.state;
  }

  get currentGameId(): string {
    return this.gameId;
  }

  /** Starts a new game with optional new rules or seed. */
  newGame(params: { readonly rules?: Readonly<Record<string, unknown>>; readonly seed?: number | string }): RuntimeResult {
    const config = { ...this.options.rules, ...params.rules, players: this.options.players };
    const seed = params.seed ?? this.options.nextSeed();
    const setup = this.engine.setup(config, seed);
    if (!setup.ok) return reject(setup.code, setup.message);
    if (this.info && this.gameId !== '' && !this.engine.result(this.state).over) {
      this.deps.log.endGame(this.gameId, { abandoned: true, ...this.engine.result(this.state) });
    }
    this.stop();
    this.queuedPlays = [];
    this.info = { tableId: this.options.tableId, game: this.options.game, config, seed };
    this.gameId = this.deps.log.startGame(this.info);
    this.gameEnded = false;
    this.state = setup.state;
    this.pendingEvents.push({ source: 'table', event: { type: 'NEW_GAME', game: this.options.game, players: this.options.players } });
    this.engineEvents(setup.events);
    this.afterChange(this.nowMs());
    this.flush();
    return { ok: true, data: { gameId: this.gameId, seed } };
  }

  /**
   * Game time in ms: the controller's monotonic clock shifted once to the wall clock, so times in the game
   * (when a card landed) read as clock times on the dashboard and still never jump with NTP corrections.
   */
  private nowMs(): number {
    return this.deps.clock.nowUs() / 1000 + this.wallOffsetMs;
  }

  /** The game id to log rows against: none between games and once the game has ended. */
  private get openGameId(): string {
    return this.gameEnded ? '' : this.gameId;
  }

  /**
   * A station was unplugged (or lost): what its pad held is unknown now, so it is forgotten; when it comes back
   * its firmware reports what lies there afresh. Without this a tag that left while the station was away would
   * stay on the pad for ever (a Zapp Zerapp table stuck in PADS_NOT_CLEAR).
   */
  resetStation(station: StationId): void {
    if (this.pads[station] === undefined) return;
    this.pads = { ...this.pads, [station]: emptyPad(station) };
    this.afterChange(this.nowMs());
    this.flush();
  }

  /** A sensor event from the hardware. Logged first (with its raw times), whatever it turns out to mean. */
  handleSensor(raw: SensorEvent): void {
    this.deps.log.sensor(this.options.tableId, this.openGameId || null, raw);
    if (this.removedStations.has(raw.station)) {
      this.flush();
      this.tellWatchers({ kind: 'sensor', event: raw }, undefined, false);
      return;
    }
    const before = this.state;
    this.startCapture();
    const event = this.onGameClock(raw);
    const padsBefore = this.pads;
    this.pads = updatePads(this.pads, event);
    const inputs = this.options.tableGame.onSensor(this.state, this.pads, event, padsBefore);
    let queued = false;
    for (const input of inputs) {
      if (input.kind === 'queue-play') {
        this.queuePlay(input);
        queued = true;
      } else this.carryOut(input);
    }
    this.afterChange(event.time.hostUs / 1000);
    this.flush();
    this.tellWatchers({ kind: 'sensor', event: raw }, before, queued);
  }

  /**
   * Calls `listener` with what every later input came to (a sensor event, a batch of plays), after it was
   * committed and published. Returns the function that stops it. Listeners must not throw.
   */
  watchOutcomes(listener: (outcome: InputOutcome) => void): () => void {
    this.watchers.add(listener);
    return () => {
      this.watchers.delete(listener);
    };
  }

  /** The tags the table believes lie on a station's pad now. */
  padTags(station: StationId): readonly string[] {
    return this.pads[station]?.tags ?? [];
  }

  private startCapture(): void {
    this.capture = this.watchers.size === 0 ? undefined : { events: [], refusals: [] };
  }

  /** `before`: the state before the input (undefined: the input was ignored). */
  private tellWatchers(cause: InputOutcome['cause'], before: unknown, queued: boolean): void {
    const captured = this.capture;
    this.capture = undefined;
    if (this.watchers.size === 0) return;
    const outcome: InputOutcome = {
      cause, events: captured?.events ?? [], refusals: captured?.refusals ?? [], queued,
      changed: before !== undefined && before !== this.state,
    };
    for (const watcher of [...this.watchers]) watcher(outcome);
  }

  /** The event with its controller times (a matched slap's too) shifted to the game clock (see nowMs). */
  private onGameClock(raw: SensorEvent): SensorEvent {
    const shift = (t: EventTime): EventTime => ({ ...t, hostUs: t.hostUs + this.wallOffsetMs * 1000 });
    const event = { ...raw, time: shift(raw.time) };
    return event.kind === 'tag-arrived' && event.slap !== undefined ? { ...event, slap: { ...event.slap, time: shift(event.slap.time) } } : event;
  }

  /** Applies an engine action on a referee's request (roll, move, declare-stuck, next-round…). */
  requestAction(raw: unknown, by: string, asCorrection: boolean): RuntimeResult {
    const parsed = this.engine.parseAction(raw);
    if ('error' in parsed) return reject(parsed.code, parsed.error);
    const waiting = this.options.tableGame.requestRefusal(this.state, this.pads, parsed);
    if (waiting !== null) return waiting;
    const action = parsed.at === undefined ? { ...parsed, at: this.nowMs() } : parsed;
    const result = this.apply(action);
    if (result.ok && asCorrection) {
      this.deps.log.correction(this.options.tableId, this.gameId, { kind: 'enter', by, action });
      this.tableEvent({ type: 'CORRECTION_APPLIED', reason: `${action.type} entered by ${by}` });
    }
    if (result.ok) this.afterChange(action.at ?? 0);
    this.flush();
    return result;
  }

  /** Takes back the last action in force; the game is rebuilt from the log without it. */
  undo(by: string, reason?: string): RuntimeResult {
    if (this.gameId === '') return reject('NOTHING_TO_UNDO', 'no game running');
    const undone = this.deps.log.undoLast(this.options.tableId, this.gameId, by, reason);
    if (!undone.ok) {
      this.flush();
      return undone;
    }
    this.stop();
    this.queuedPlays = [];
    this.state = undone.state;
    this.tableEvent({ type: 'ACTION_UNDONE', undoneSeq: undone.undoneSeq, ...(reason === undefined ? {} : { reason }) });
    this.flush();
    return { ok: true, data: { undoneSeq: undone.undoneSeq } };
  }

  /** Takes a station out of the game (a faulty reader); its events are still logged but ignored. */
  removeStation(station: StationId, by: string, reason?: string): RuntimeResult {
    if (this.removedStations.has(station)) return reject('ALREADY_REMOVED', `${station} is already out of the game`);
    this.removedStations.add(station);
    this.deps.log.correction(this.options.tableId, this.gameId, { kind: 'remove-station', by, reason, station });
    this.tableEvent({ type: 'STATION_REMOVED', station });
    this.flush();
    return { ok: true };
  }

  private queuePlay(input: QueuedPlay): void {
    this.queuedPlays.push(input);
    // The first play of a burst opens the window; everything that lands inside it is ordered by device time.
    this.cancelBatch ??= this.deps.scheduler.after(this.options.arbitrationWindowMs, () => {
      this.cancelBatch = undefined;
      this.applyQueuedPlays();
    });
  }

  private applyQueuedPlays(): void {
    const queued = this.queuedPlays;
    const plays = queued.map((q) => q.play);
    this.queuedPlays = [];
    const game = this.options.tableGame;
    if (plays.length === 0 || game.batch === undefined) return;
    const before = this.state;
    this.startCapture();
    // One action for the whole batch: the engine orders it by the landing times and sends plays whose
    // intervals overlap to the referee with the figures; arrival order decides nothing (principle 4).
    const at = Math.max(...plays.map((p) => p.at));
    this.apply(game.batch(plays, at));
    this.afterChange(at);
    this.flush();
    this.tellWatchers({ kind: 'plays', plays: queued.map((q) => ({ station: q.station, player: q.play.player })) }, before, false);
  }

  private carryOut(intent: Intent): void {
    if (intent.kind === 'action') this.apply(intent.action);
    else {
      this.tableEvent({
        type: 'NOTICE', code: intent.code, message: intent.message,
        ...(intent.station === undefined ? {} : { station: intent.station }),
        ...(intent.player === undefined ? {} : { player: intent.player }),
      });
    }
  }

  private apply(action: BaseAction): RuntimeResult {
    const outcome = this.engine.apply(this.state, action);
    if (!outcome.ok) {
      // The log keeps the true reason; the event and the answer carry only what may leave the process.
      this.deps.log.rejected(this.options.tableId, this.openGameId, action, outcome.code, outcome.message);
      const refusal = this.engine.publicRejection(action, outcome);
      this.capture?.refusals.push({ action: action.type, code: refusal.code, message: refusal.message });
      // The public refusal's sentence too: a page shows why, not just a code (it says no more than the code).
      const player = (action as { player?: unknown }).player;
      this.tableEvent({
        type: 'ACTION_REFUSED', action: action.type, code: refusal.code, message: refusal.message, reason: refusal.reason,
        card: refusal.card, ...(typeof player === 'string' ? { player } : {}),
      });
      return reject(refusal.code, refusal.message);
    }
    this.deps.log.action(this.options.tableId, this.gameId, action);
    this.state = outcome.state;
    this.engineEvents(outcome.events);
    this.flashRefusedPlays(outcome.events);
    const result = this.engine.result(this.state);
    if (result.over && !this.gameEnded) {
      this.deps.log.endGame(this.gameId, result);
      this.gameEnded = true;
    }
    return { ok: true, data: { events: outcome.events.length } };
  }

  /** Automatic follow-ups (placements, reveal) until the state settles, then the game's timer. */
  private afterChange(at: number): void {
    for (let guard = 0; guard < 16; guard++) {
      const intents = this.options.tableGame.followUps(this.state, this.pads, at);
      const before = this.state;
      for (const intent of intents) this.carryOut(intent);
      if (this.state === before) break;
    }
    this.armTimer();
  }

  /** (Re-)arms the game's timer for the current state; a state that asks for none cancels the old one. */
  private armTimer(): void {
    if (this.timerArmedFor === this.state) return;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerArmedFor = this.state;
    const timed = this.options.tableGame.timer(this.state, this.nowMs());
    if (timed !== null) {
      this.cancelTimer = this.deps.scheduler.after(Math.max(0, timed.delayMs), () => {
        this.cancelTimer = undefined;
        const now = this.nowMs();
        this.apply({ ...timed.action, at: now });
        this.afterChange(now);
        this.flush();
      });
    }
  }

  /**
   * Commit, then publish events and the public view, then set the lamps that changed. An input that publishes
   * nothing (a weight settling again, a tag of no consequence: most sensor lines) does not commit on its own:
   * its rows join the log's group commit at the end of the event-loop turn, or the next commit before a
   * publish, whichever comes first. Nothing derived from an uncommitted row ever leaves (principle 8), and a
   * commit per sensor line was the controller's largest cost under load (docs/performance.md).
   */
  private flush(): void {
    if (this.pendingEvents.length > 0 || this.publishedState !== this.state) this.deps.log.commit();
    this.publish();
  }

  private engineEvents(events: readonly unknown[]): void {
    for (const event of events) {
      this.pendingEvents.push({ source: 'engine', event });
      this.capture?.events.push({ source: 'engine', event });
    }
  }

  private tableEvent(event: RuntimeEvent): void {
    this.pendingEvents.push({ source: 'table', event });
    this.capture?.events.push({ source: 'table', event });
  }

  private publish(): void {
    if (this.pendingEvents.length > 0) {
      this.deps.publisher.events(this.options.tableId, this.options.game, this.pendingEvents);
      this.pendingEvents = [];
    }
    // The state is published when it changed: a stream of sensor events that change nothing (a weight
    // settling again, a tag read twice) must not flood the broker with identical retained messages.
    if (this.publishedState === this.state) return;
    this.publishedState = this.state;
    this.deps.publisher.state(this.options.tableId, this.options.game, this.state);
    this.refreshLamps();
  }

  /** Sets every seat's lamp to what the state calls for (stations flashing an error keep it until it ends). */
  private refreshLamps(): void {
    const lamps = this.options.tableGame.lamps(this.state);
    for (const [station, player] of Object.entries(this.options.seatOfStation)) {
      if (this.flashing.has(station)) continue;
      const pattern = lamps[player] ?? 'off';
      if (this.lampsShown[station] !== pattern) {
        this.lampsShown[station] = pattern;
        this.deps.lamps.setLamp(station, pattern);
      }
    }
  }

  /**
   * The players whose hands must do something after these events (the game's `flashFor`: Zip-Zap's refused
   * play goes back to the hand, ZIP-45/46; a Killer-21 life lost takes a chip off): their lamps flash `error`
   * for a moment, then show the game again.
   */
  private flashRefusedPlays(events: readonly unknown[]): void {
    for (const player of this.options.tableGame.flashFor(events)) {
      const station = Object.entries(this.options.seatOfStation).find(([, p]) => p === player)?.[0];
      if (station === undefined) continue;
      this.flashing.get(station)?.();
      this.lampsShown[station] = 'error';
      this.deps.lamps.setLamp(station, 'error');
      this.flashing.set(station, this.deps.scheduler.after(REFUSED_FLASH_MS, () => {
        this.flashing.delete(station);
        this.lampsShown[station] = undefined;
        this.refreshLamps();
      }));
    }
  }
}
