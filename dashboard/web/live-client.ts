/**
 * The browser's side of `/live`: a WebSocket that reconnects by itself (with backoff), and a store of the
 * latest payload of every topic, so pages render from the store and re-render when it changes. After a
 * reconnect the server sends a fresh snapshot, which replaces what the store held.
 */
import type { BridgeTable, PublicEventJson, StateStatus, StationHealth } from './store-types.ts';
import type { StatePayload } from './types.ts';

export interface TableData {
  readonly id: string;
  status: StateStatus;
  state: StatePayload | undefined;
  readonly health: Map<string, StationHealth>;
  /** Recent events, oldest first (at most MAX_EVENTS), de-duplicated by `seq`. */
  events: PublicEventJson[];
  /**
   * The `seq`s of events that arrived live, as they happened, not in a (re)connection snapshot: an event newer
   * than the table's state when it arrives (the controller publishes the events, then the state; a snapshot
   * sends the state first). A page plays sounds only for these.
   */
  readonly liveSeqs: Set<number>;
  /** A weight sample per station for the health plots: [time s, grams]. */
  readonly weights: Map<string, { t: number[]; g: (number | null)[] }>;
  /**
   * The controller start (`epoch`) the events belong to. `seq` starts again at every start, so events are
   * de-duplicated by `seq` within one epoch only: a state or event of a newer epoch (the controller restarted
   * while the page stayed open) drops the events of the old one, or they would hide the new ones.
   */
  epoch: number | undefined;
}

const MAX_EVENTS = 200;
const MAX_SAMPLES = 600;

/** One controller under the base topic (a venue has several): its `bridge/<id>/status` and `bridge/<id>/tables`. */
export interface ControllerData {
  status: StateStatus;
  tables: readonly BridgeTable[];
}

export class LiveStore {
  readonly tables = new Map<string, TableData>();
  /** Every controller seen, by id. */
  readonly controllers = new Map<string, ControllerData>();
  /** Every controller's tables, each entry with its `controller` (controllers in id order). */
  bridge: readonly BridgeTable[] = [];
  connected = false;
  /** The first snapshot has arrived whole (the server's `<base>/$snapshot` marker follows it). */
  synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private socket: WebSocket | undefined;
  private readonly listeners = new Set<(topicTable: string | undefined) => void>();
  private retryMs = 500;
  private readonly base: string;

  constructor(baseTopic: string) {
    this.base = baseTopic;
  }

  onChange(listener: (table: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  table(id: string): TableData {
    let t = this.tables.get(id);
    if (t === undefined) {
      t = { id, status: 'unknown', state: undefined, health: new Map(), events: [], liveSeqs: new Set(), weights: new Map(), epoch: undefined };
      this.tables.set(id, t);
    }
    return t;
  }

  /** Table ids: those the controller lists, then any other seen. */
  tableIds(): string[] {
    const ids = new Set(this.bridge.map((b) => b.id));
    for (const id of this.tables.keys()) ids.add(id);
    return [...ids];
  }

  bridgeEntry(id: string): BridgeTable | undefined {
    return this.bridge.find((b) => b.id === id);
  }

  /** The status of the controller that runs a table (`unknown` when no controller lists it). */
  controllerStatus(table: string): StateStatus {
    const controller = this.bridgeEntry(table)?.controller;
    return controller === undefined ? 'unknown' : this.controllers.get(controller)?.status ?? 'unknown';
  }

  private controller(id: string): ControllerData {
    let c = this.controllers.get(id);
    if (c === undefined) {
      c = { status: 'unknown', tables: [] };
      this.controllers.set(id, c);
    }
    return c;
  }

  connect(): void {
    const url = new URL('/live', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    let fresh = true;
    socket.addEventListener('open', () => {
      this.connected = true;
      this.retryMs = 500;
      this.emit(undefined);
    });
    socket.addEventListener('message', (e: MessageEvent<string>) => {
      if (fresh) {
        // The first message after (re)connecting starts a new snapshot: forget what may be stale.
        fresh = false;
        for (const t of this.tables.values()) t.health.clear();
      }
      this.receive(e.data);
    });
    socket.addEventListener('close', () => {
      this.connected = false;
      this.emit(undefined);
      setTimeout(() => {
        this.connect();
      }, this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }

  /**
   * Resolves once the first snapshot is in, or after `maxMs` (a slow or absent connection): a page mounted then
   * is drawn with its data, not grown under the reader as the snapshot arrives.
   */
  async whenSynced(maxMs: number): Promise<void> {
    if (this.synced) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.syncWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private emit(table: string | undefined): void {
    for (const l of this.listeners) l(table);
  }

  private receive(text: string): void {
    let envelope: { topic?: unknown; payload?: unknown };
    try {
      envelope = JSON.parse(text) as { topic?: unknown; payload?: unknown };
    } catch {
      return;
    }
    if (typeof envelope.topic !== 'string' || !envelope.topic.startsWith(`${this.base}/`)) return;
    const levels = envelope.topic.slice(this.base.length + 1).split('/');
    const [first, second, third] = levels;
    const payload = envelope.payload;
    if (first === '$snapshot') {
      this.synced = true;
      for (const wake of this.syncWaiters.splice(0)) wake();
      this.emit(undefined);
      return;
    }
    if (first === 'bridge') {
      // `bridge/<controller>/tables|status`: one entry per controller, so several controllers share the base.
      if (second === undefined || levels.length !== 3) return;
      const c = this.controller(second);
      if (third === 'tables') {
        const tables = (payload as { tables?: unknown } | null)?.tables;
        c.tables = Array.isArray(tables) ? (tables as BridgeTable[]).map((t) => ({ ...t, controller: second })) : [];
        this.bridge = [...this.controllers.keys()].sort().flatMap((id) => this.controllers.get(id)?.tables ?? []);
      } else if (third === 'status') {
        c.status = payload === 'online' || payload === 'offline' ? payload : 'unknown';
      }
      this.emit(undefined);
      return;
    }
    if (first === undefined || second === undefined) return;
    const t = this.table(first);
    switch (second) {
      case 'status':
        t.status = payload === 'online' || payload === 'offline' ? payload : 'unknown';
        break;
      case 'state':
        if (!this.sameEpoch(t, (payload as { epoch?: unknown } | null)?.epoch)) return;
        t.state = payload as StatePayload;
        break;
      case 'events': {
        const event = payload as PublicEventJson;
        if (!this.sameEpoch(t, event.epoch)) return;
        if (t.events.some((e) => e.seq === event.seq)) return;
        if (t.state !== undefined && event.seq > t.state.seq) t.liveSeqs.add(event.seq);
        t.events.push(event);
        t.events.sort((a, b) => a.seq - b.seq);
        if (t.events.length > MAX_EVENTS) {
          for (const old of t.events.splice(0, t.events.length - MAX_EVENTS)) t.liveSeqs.delete(old.seq);
        }
        break;
      }
      case 'health':
        if (third === undefined) return;
        if (payload === null) t.health.delete(third);
        else {
          const health = payload as StationHealth;
          t.health.set(third, health);
          this.sample(t, third, health);
        }
        break;
      default:
        return;
    }
    this.emit(first);
  }

  /**
   * Moves the table to `epoch` when it is newer (forgetting the old start's events) and says whether a message
   * of that epoch is current. A message of an older epoch (from before the restart) is stale: dropped. One
   * without an epoch (an older controller) is taken as current.
   */
  private sameEpoch(t: TableData, epoch: unknown): boolean {
    if (typeof epoch !== 'number') return true;
    if (t.epoch !== undefined && epoch < t.epoch) return false;
    if (t.epoch !== undefined && epoch > t.epoch) {
      t.events = [];
      t.liveSeqs.clear();
      t.state = undefined;
    }
    t.epoch = epoch;
    return true;
  }

  private sample(t: TableData, station: string, health: StationHealth): void {
    if (health.pad === undefined) return;
    let series = t.weights.get(station);
    if (series === undefined) {
      series = { t: [], g: [] };
      t.weights.set(station, series);
    }
    series.t.push(Date.now() / 1000);
    series.g.push(health.pad.hidden === true ? null : health.pad.grams);
    if (series.t.length > MAX_SAMPLES) {
      series.t.shift();
      series.g.shift();
    }
  }
}
