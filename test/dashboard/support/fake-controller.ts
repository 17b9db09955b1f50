/**
 * A stand-in for the zaptable controller, for the dashboard's route and live tests (the browser tests run the
 * real `ControllerApp`: real-harness.ts): it logs in to the broker as the controller, publishes what the controller publishes (bridge
 * status and tables, per table status, the engines' real public views through `publicStateOf`, public events
 * through `publicEventOf`, station health with a pad reading) and answers requests exactly once, with the
 * token checked, by applying engine actions. `simulate` requests play the part of the simulated table: a
 * barrel placed on a pad is a `place`, a card tapped a batch play, a button pressed a roll / the only move /
 * a ZAP. It keeps the omniscient state so tests can check what must never reach a page.
 *
 * It is deliberately small; it is not the table runtime (no event log, no timing window, no lamps).
 */
import { connect, type MqttClient } from 'mqtt';
import { OMNISCIENT } from '../../../controller/rules/common/viewer.ts';
import type { BaseAction, GameId } from '../../../controller/rules/engine.ts';
import { getEngine, type AnyEngine } from '../../../controller/rules/games.ts';
import type { HealthPayload, ResponsePayload, StatePayload } from '../../../controller/transport/payloads.ts';
import { idleStateOf, publicEventOf, publicStateOf, tableEventOf } from '../../../controller/transport/public-view.ts';
import { Topics } from '../../../controller/transport/topics.ts';

export interface FakeTableSpec {
  readonly id: string;
  readonly name?: string;
  readonly game: GameId;
  readonly players: readonly string[];
  readonly seed?: number | string;
  readonly config?: Readonly<Record<string, unknown>>;
  /** Whether to start with a game (default true) or idle. */
  readonly startGame?: boolean;
}

export interface FakeControllerOptions {
  readonly url: string;
  readonly baseTopic: string;
  readonly username: string;
  readonly password: string;
  /** The request token it accepts (the dashboard's). */
  readonly token: string;
  readonly tables: readonly FakeTableSpec[];
  /** Milliseconds to wait before answering a request (to test timeouts); default 0. */
  readonly answerDelayMs?: number;
  /** Its id, the `<controller>` level of its bridge topics (default `fake`): several share a broker at a venue. */
  readonly controllerId?: string;
}

interface TableRuntime {
  readonly spec: FakeTableSpec;
  engine: AnyEngine;
  game: GameId;
  players: string[];
  state: unknown;
  history: unknown[];
  seq: number;
  readonly health: Map<string, HealthPayload & { pad?: unknown }>;
  /** Station → what lies on its pad. */
  readonly pads: Map<string, { kind: 'barrel'; value: number } | { kind: 'card'; card: string }>;
}

type Outcome = { ok: true; events: unknown[] } | { ok: false; code: string; message: string };
type Result = { ok: true; data: Record<string, unknown> } | { ok: false; code: string; message: string };

const ERRORS = { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 };

function barrelGrams(value: number): number {
  // 9 g of barrel and cork plus 7.5 g per stone (the simulated table's calibration, roughly).
  return 9 + value * 7.5;
}

export class FakeController {
  readonly topics: Topics;
  readonly tables = new Map<string, TableRuntime>();
  /** Every request the controller received (name, table, body), for tests that must see none. */
  readonly received: { table: string; name: string; body: Record<string, unknown> }[] = [];
  private client: MqttClient | undefined;
  private clock = 1_760_000_000_000;

  readonly controllerId: string;

  constructor(private readonly options: FakeControllerOptions) {
    this.topics = new Topics(options.baseTopic);
    this.controllerId = options.controllerId ?? 'fake';
    for (const spec of options.tables) {
      const engine = getEngine(spec.game);
      const table: TableRuntime = {
        spec, engine, game: spec.game, players: [...spec.players], state: undefined, history: [], seq: 0,
        health: new Map(), pads: new Map(),
      };
      spec.players.forEach((_, i) => {
        table.health.set(`seat-${i + 1}`, this.stationHealth(`seat-${i + 1}`, i));
      });
      this.tables.set(spec.id, table);
    }
  }

  async start(): Promise<void> {
    const client = connect(this.options.url, {
      username: this.options.username, password: this.options.password, clientId: `fake-controller-${process.pid}-${Date.now()}`,
      protocolVersion: 4, reconnectPeriod: 500,
      will: { topic: this.topics.bridgeStatus(this.controllerId), payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.client = client;
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => {
        resolve();
      });
      client.once('error', reject);
    });
    client.on('message', (topic, payload, packet) => {
      if (packet.retain) return;
      void this.onRequest(topic, payload);
    });
    // Its own tables' requests only, as a controller at a venue: another controller's tables are not its to answer.
    await client.subscribeAsync([...this.tables.keys()].map((id) => this.topics.tableRequestFilter(id)), { qos: 1 });
    await this.publish(this.topics.bridgeStatus(this.controllerId), 'online', true);
    await this.publishBridge();
    for (const table of this.tables.values()) {
      await this.publish(this.topics.status(table.spec.id), 'online', true);
      for (const h of table.health.values()) await this.publishHealth(table, h.station);
      if (table.spec.startGame === false) {
        await this.publish(this.topics.state(table.spec.id), JSON.stringify(idleStateOf({ seq: 0, at: this.now() })), true);
      } else {
        const { game, players, seed = 1, config = {} } = table.spec;
        const r = this.newGame(table, { game, players, seed, config });
        if (!r.ok) throw new Error(`fake controller: ${r.code} ${r.message}`);
        await this.flush(table, r.events);
      }
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    for (const id of this.tables.keys()) await this.publish(this.topics.status(id), 'offline', true);
    await this.publish(this.topics.bridgeStatus(this.controllerId), 'offline', true);
    await client.endAsync();
  }

  /** The omniscient view of a table's game (for tests only: it is never published). */
  omniscient(table: string): Record<string, unknown> {
    const t = this.must(table);
    return t.engine.view(t.state, OMNISCIENT) as Record<string, unknown>;
  }

  legalActions(table: string): BaseAction[] {
    const t = this.must(table);
    return t.engine.legalActions(t.state);
  }

  /** Applies an action directly (as a bot would), publishing its events and state. */
  async apply(table: string, action: BaseAction): Promise<Result> {
    const t = this.must(table);
    const r = this.applyAction(t, action);
    if (r.ok) await this.flush(t, r.events);
    return r.ok ? { ok: true, data: { seq: t.seq } } : r;
  }

  private must(id: string): TableRuntime {
    const t = this.tables.get(id);
    if (t === undefined) throw new Error(`no table ${id}`);
    return t;
  }

  private now(): number {
    this.clock += 250;
    return this.clock;
  }

  private stationHealth(station: string, i: number): HealthPayload {
    return {
      station, kind: 'simulated', online: true, firmware: 'sim-1.0.0', protocol: 1, port: `sim:${station}`, lastSeenMs: Date.now(),
      errors: { ...ERRORS, badLines: i === 1 ? 2 : 0 },
      clock: { offsetUs: 1500 + i * 250, driftPpm: 3.5 + i, uncertaintyUs: 180 },
    };
  }

  private async publish(topic: string, payload: string, retain: boolean): Promise<void> {
    await this.client?.publishAsync(topic, payload, { qos: 1, retain });
  }

  private async publishBridge(): Promise<void> {
    const tables = [...this.tables.values()].map((t) => ({
      id: t.spec.id, name: t.spec.name ?? t.spec.id, mode: t.game, simulated: true,
      seats: t.players.map((p, i) => ({ id: p, station: `seat-${i + 1}` })),
    }));
    await this.publish(this.topics.bridgeTables(this.controllerId), JSON.stringify({ tables }), true);
  }

  private async publishHealth(t: TableRuntime, station: string): Promise<void> {
    const h = t.health.get(station);
    if (h === undefined) {
      await this.publish(this.topics.health(t.spec.id, station), '', true);
      return;
    }
    const item = t.pads.get(station);
    // A placed barrel's weight and tag would tell its number: withheld until the reveal.
    const zappHidden = t.game === 'zapp-zerapp' && item?.kind === 'barrel'
      && (this.publicView(t) as { reveal: unknown }).reveal === null;
    // A card read on a pad is public only once it lies on the pile; a refused card went back into its hand.
    const cardPublic = item?.kind === 'card' && JSON.stringify(this.publicView(t)).includes(`"${item.card}"`);
    const pad = item === undefined ? { grams: 0.4, tag: null }
      : item.kind === 'barrel'
        ? (zappHidden ? { grams: null, tag: null, hidden: true } : { grams: barrelGrams(item.value), tag: { kind: 'barrel', label: `barrel ${item.value}` } })
        : cardPublic ? { grams: 1.8, tag: { kind: 'card', label: item.card } } : { grams: null, tag: null, hidden: true };
    await this.publish(this.topics.health(t.spec.id, station), JSON.stringify({ ...h, lastSeenMs: Date.now(), pad }), true);
  }

  private publicView(t: TableRuntime): unknown {
    return t.engine.view(t.state, { role: 'public' });
  }

  private newGame(t: TableRuntime, p: Record<string, unknown>): Outcome {
    const game = p.game as GameId;
    const players = p.players as string[];
    const engine = getEngine(game);
    const config = (p.config as Record<string, unknown> | undefined) ?? {};
    const setup = engine.setup({ ...config, players }, (p.seed as number | string | undefined) ?? 7);
    if (!setup.ok) return setup;
    t.engine = engine;
    t.game = game;
    t.players = [...players];
    t.state = setup.state;
    t.history = [];
    t.pads.clear();
    const newGame = tableEventOf({ type: 'NEW_GAME', game, players }, { seq: ++t.seq, at: this.now() });
    void this.publish(this.topics.events(t.spec.id), JSON.stringify(newGame), false);
    return { ok: true, events: [...setup.events] };
  }

  private applyAction(t: TableRuntime, action: BaseAction): Outcome {
    const parsed = t.engine.parseAction(action);
    if ('error' in parsed) return { ok: false, code: 'BAD_ACTION', message: parsed.error };
    const r = t.engine.apply(t.state, parsed);
    if (!r.ok) return r;
    t.history.push(t.state);
    t.state = r.state;
    const events = [...r.events];
    // What the runtime does by itself: reveal once everybody has placed; announce a stuck table (ORACLE).
    if (t.game === 'zapp-zerapp' && (t.engine.legalActions(t.state)).some((a) => a.type === 'reveal')) {
      const reveal = t.engine.apply(t.state, { type: 'reveal' });
      if (reveal.ok) {
        t.state = reveal.state;
        events.push(...reveal.events);
      }
    }
    if (t.game === 'zip-zap' && events.some((e) => (e as { type: string }).type === 'STUCK_DETECTED')) {
      const stuck = t.engine.apply(t.state, { type: 'announce-stuck' });
      if (stuck.ok) {
        t.state = stuck.state;
        events.push(...stuck.events);
      }
    }
    return { ok: true, events };
  }

  private async flush(t: TableRuntime, events: readonly unknown[]): Promise<void> {
    for (const e of events) {
      const at = this.now();
      const pub = publicEventOf(t.game, e, { seq: t.seq + 1, at });
      if (pub === null) continue;
      t.seq++;
      await this.publish(this.topics.events(t.spec.id), JSON.stringify(pub), false);
    }
    // Barrels go back after the reveal: pads clear when the round has moved on.
    if (t.game === 'zapp-zerapp' && (this.publicView(t) as { phase: string }).phase === 'ROLL') t.pads.clear();
    const state: StatePayload = publicStateOf(t.engine, t.state, { seq: t.seq, at: this.now() });
    await this.publish(this.topics.state(t.spec.id), JSON.stringify(state), true);
    for (const station of t.health.keys()) await this.publishHealth(t, station);
  }

  private async onRequest(topic: string, bytes: Buffer): Promise<void> {
    const parsed = this.topics.parse(topic);
    // Like the real controller, it hears only the requests of its own tables.
    if (parsed?.kind !== 'request' || !this.tables.has(parsed.table)) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      return;
    }
    this.received.push({ table: parsed.table, name: parsed.name, body });
    const transaction = (body.transaction as string | number | undefined) ?? null;
    const { token, transaction: _t, ...params } = body;
    let result: Result;
    if (token !== this.options.token) result = { ok: false, code: 'UNAUTHORIZED', message: 'the request needs a valid token' };
    else result = await this.handle(this.must(parsed.table), parsed.name, params);
    if (this.options.answerDelayMs !== undefined) await new Promise((r) => setTimeout(r, this.options.answerDelayMs));
    const response: ResponsePayload = result.ok
      ? { status: 'ok', data: result.data as never, error: null, transaction }
      : { status: 'error', data: null, error: { code: result.code, message: result.message }, transaction };
    await this.publish(this.topics.response(parsed.table, parsed.client, parsed.name), JSON.stringify(response), false);
  }

  private async run(t: TableRuntime, action: BaseAction): Promise<Result> {
    const r = this.applyAction(t, action);
    if (!r.ok) return r;
    await this.flush(t, r.events);
    return { ok: true, data: { seq: t.seq } };
  }

  private async handle(t: TableRuntime, name: string, p: Record<string, unknown>): Promise<Result> {
    switch (name) {
      case 'new-game': {
        const r = this.newGame(t, p);
        if (!r.ok) return r;
        await this.publishBridge();
        for (const station of [...t.health.keys()]) if (!t.players.some((_, i) => `seat-${i + 1}` === station)) t.health.delete(station);
        t.players.forEach((_, i) => {
          if (!t.health.has(`seat-${i + 1}`)) t.health.set(`seat-${i + 1}`, this.stationHealth(`seat-${i + 1}`, i));
        });
        await this.flush(t, r.events);
        return { ok: true, data: { seq: t.seq, game: t.game } };
      }
      case 'action':
        return this.run(t, p.action as BaseAction);
      case 'correct':
        return this.run(t, p.action as BaseAction);
      case 'roll':
        return this.run(t, { type: 'roll', ...(p.player === undefined ? {} : { player: p.player }) });
      case 'enter-dice':
        return this.run(t, { type: 'enter-dice', ...p });
      case 'move':
        return this.run(t, { type: 'move', ...p });
      case 'declare-stuck':
        return this.run(t, { type: 'declare-stuck', ...p });
      case 'next-round':
        return this.run(t, { type: 'next-round' });
      case 'undo': {
        const previous = t.history.pop();
        if (previous === undefined) return { ok: false, code: 'NOTHING_TO_UNDO', message: 'nothing to undo' };
        t.state = previous;
        await this.publish(this.topics.events(t.spec.id), JSON.stringify(tableEventOf({ type: 'ACTION_UNDONE', undoneSeq: t.seq }, { seq: ++t.seq, at: this.now() })), false);
        await this.flush(t, []);
        return { ok: true, data: { seq: t.seq } };
      }
      case 'remove-station': {
        const station = String(p.station);
        t.health.delete(station);
        await this.publishHealth(t, station);
        return { ok: true, data: { station } };
      }
      case 'simulate':
        return this.simulate(t, p);
      default:
        return { ok: false, code: 'NOT_AVAILABLE', message: name };
    }
  }

  private async simulate(t: TableRuntime, p: Record<string, unknown>): Promise<Result> {
    const station = String(p.station);
    const health = t.health.get(station);
    if (health === undefined) return { ok: false, code: 'UNKNOWN_STATION', message: station };
    const seat = Number(/^seat-(\d+)$/.exec(station)?.[1] ?? '0') - 1;
    const player = t.players[seat];
    const item = p.item as { kind: string; value?: number; card?: string } | undefined;
    switch (p.op) {
      case 'unplug':
      case 'plug':
        t.health.set(station, { ...health, online: p.op === 'plug', errors: { ...health.errors, disconnects: health.errors.disconnects + (p.op === 'unplug' ? 1 : 0) } });
        await this.publishHealth(t, station);
        return { ok: true, data: { station } };
      case 'lift':
        t.pads.delete(station);
        await this.publishHealth(t, station);
        return { ok: true, data: { station } };
      default:
        break;
    }
    if (!health.online) return { ok: false, code: 'STATION_OFFLINE', message: `${station} is unplugged` };
    if (player === undefined) return { ok: false, code: 'UNKNOWN_STATION', message: station };
    let action: BaseAction;
    if (p.op === 'place' && item?.kind === 'barrel' && typeof item.value === 'number') {
      action = { type: 'place', player, barrel: item.value } as BaseAction;
      t.pads.set(station, { kind: 'barrel', value: item.value });
    } else if (p.op === 'tap' && item?.kind === 'card' && typeof item.card === 'string') {
      const card = item.card;
      action = { type: 'plays', plays: [card.startsWith('Z') ? { player, zap: true, at: this.clock } : { player, card, at: this.clock }] } as BaseAction;
      t.pads.set(station, { kind: 'card', card });
    } else if (p.op === 'press') {
      const legal = t.engine.legalActions(t.state).filter((a) => (a as { player?: string }).player === player);
      const pick = t.game === 'zip-zap' ? legal.find((a) => a.type === 'zap')
        : legal.find((a) => a.type === 'roll') ?? (legal.filter((a) => a.type === 'move').length === 1 ? legal.find((a) => a.type === 'move') : undefined);
      if (pick === undefined) return { ok: true, data: { station } };
      action = pick;
    } else {
      return { ok: false, code: 'INVALID_REQUEST', message: 'unknown simulate op' };
    }
    const r = this.applyAction(t, action);
    if (!r.ok) {
      if (p.op === 'place') t.pads.delete(station);
      // A refused card is recorded by the engine only in a batch; a refused barrel just stays refused.
      return { ok: false, code: r.code, message: r.message };
    }
    await this.flush(t, r.events);
    return { ok: true, data: { station } };
  }
}
