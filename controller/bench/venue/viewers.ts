/**
 * The bench's side of its viewers: the venue's MQTT viewers (in this process, on the venue broker: the
 * reference for what the controllers published) and the forked viewer processes (viewer-process.ts) for the
 * dashboard's and the public broker's audience.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type MqttClient } from 'mqtt';
import { projectFile } from '../../config/project-root.ts';
import { summarise } from '../../kernel/stats.ts';
import { DeliveryLog, eventOf, tallyAfterGrace, type DeliveryTally, type SeqRanges } from './deliveries.ts';
import type { ViewerReport, ViewerRequest, ViewerSetup } from './viewer-process.ts';

/** How long a viewer process may take to connect its viewers, and to count after the grace. */
const READY_TIMEOUT_MS = 180_000;
const TALLY_TIMEOUT_MS = 60_000;

/** A forked group of viewers. */
export interface ViewerGroup {
  readonly pid: number;
  readonly connectMs: number;
  /** Connection attempts that failed (and were tried again) while the viewers connected. */
  readonly connectErrors: number;
  /** The window opens (messages are counted from now). */
  mark(): void;
  tally(ranges: SeqRanges, graceMs: number): Promise<{ tally: DeliveryTally; closes: number; messages: number }>;
  stop(): void;
}

/** Forks a viewer process and resolves once its viewers are connected. */
export async function startViewerGroup(setup: ViewerSetup): Promise<ViewerGroup> {
  const child: ChildProcess = fork(projectFile('controller', 'bench', 'venue', 'viewer-process.ts'), [], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // A viewer process that cannot keep up (more messages than one core reads) must not hang the bench for ever.
  const next = async <K extends ViewerReport['kind']>(kind: K, timeoutMs: number): Promise<Extract<ViewerReport, { kind: K }>> =>
    new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the ${setup.kind} viewers' process did not report "${kind}" within ${timeoutMs / 1000} s (saturated?)`));
      }, timeoutMs);
      const onMessage = (m: ViewerReport): void => {
        if (m.kind !== kind) return;
        done();
        resolve(m as Extract<ViewerReport, { kind: K }>);
      };
      const onExit = (code: number | null): void => {
        done();
        reject(new Error(`the ${setup.kind} viewers' process exited (${String(code)}) before it reported`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const stop = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  try {
    const ready = next('ready', READY_TIMEOUT_MS);
    child.send(setup satisfies ViewerRequest);
    const { connectMs, connectErrors } = await ready;
    return {
      pid: child.pid ?? 0,
      connectMs,
      connectErrors,
      mark() {
        child.send({ kind: 'mark' } satisfies ViewerRequest);
      },
      async tally(ranges, graceMs) {
        const answer = next('tally', graceMs + TALLY_TIMEOUT_MS);
        child.send({ kind: 'tally', ranges, graceMs } satisfies ViewerRequest);
        const { tally, closes, messages } = await answer;
        return { tally, closes, messages };
      },
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Latency by event type at one venue viewer: which events make the tail (the controller's, before any broker). */
export type LatencyByType = Record<string, {
  readonly count: number; readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number;
}>;

async function connectedClient(url: string, user: { username: string; password: string }, clientId: string): Promise<MqttClient> {
  const client = connect(url, { ...user, clientId, protocolVersion: 4, reconnectPeriod: 1000 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      resolve();
    });
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
  return client;
}

/**
 * The venue's MQTT viewers (a scoreboard, an overlay: clients of the venue broker with the viewer account),
 * each following every table's events. With one more client reading every table's state they are the
 * reference: `latest` is, per table, the newest seq any viewer got or any state names (a state carries the
 * seq of the last event published before it, so an event that every viewer missed still counts as
 * published); it opens and closes the window's seq ranges.
 */
export class VenueViewers {
  /** Messages received since `snapshot` was last called with `mark`. */
  private readonly counter: { messages: number };
  private constructor(
    private readonly clients: readonly MqttClient[],
    readonly logs: readonly DeliveryLog[],
    private readonly latest: ReadonlyMap<string, number>,
    private readonly first: readonly { table: string; seq: number; type: string; ms: number }[],
    counter: { messages: number },
  ) {
    this.counter = counter;
  }

  static async start(
    url: string, user: { username: string; password: string }, baseTopic: string, count: number,
  ): Promise<VenueViewers> {
    const logs = Array.from({ length: count }, () => new DeliveryLog(undefined));
    const latest = new Map<string, number>();
    const first: { table: string; seq: number; type: string; ms: number }[] = [];
    const counter = { messages: 0 };
    const clients: MqttClient[] = [];
    const saw = (table: string, seq: number): void => {
      if (seq > (latest.get(table) ?? 0)) latest.set(table, seq);
    };
    try {
      const states = await connectedClient(url, user, `${user.username}-${process.pid}-states`);
      clients.push(states);
      states.on('message', (topic, payload) => {
        const seq = (JSON.parse(payload.toString('utf8')) as { seq?: unknown }).seq;
        const table = topic.split('/').at(-2);
        if (typeof seq === 'number' && table !== undefined) saw(table, seq);
      });
      await states.subscribeAsync(`${baseTopic}/+/state`, { qos: 1 });
      for (const [i, log] of logs.entries()) {
        const client = await connectedClient(url, user, `${user.username}-${process.pid}-${i}`);
        clients.push(client);
        client.on('message', (topic, payload) => {
          counter.messages++;
          const parsed = JSON.parse(payload.toString('utf8')) as { seq?: unknown; at?: unknown; type?: unknown };
          const event = eventOf(topic, parsed);
          if (event === undefined) return;
          const ms = Date.now() - event.at;
          log.record(event.table, event.seq, ms);
          if (i === 0) first.push({ table: event.table, seq: event.seq, type: String(parsed.type), ms });
          saw(event.table, event.seq);
        });
        await client.subscribeAsync(`${baseTopic}/+/events`, { qos: 1 });
      }
    } catch (error) {
      await Promise.all(clients.map(async (c) => c.endAsync(true)));
      throw error;
    }
    return new VenueViewers(clients, logs, latest, first, counter);
  }

  /** The newest seq per table now (copied): one end of the window. */
  snapshot(tables: readonly string[]): Map<string, number> {
    return new Map(tables.map((t) => [t, this.latest.get(t) ?? 0]));
  }

  /** Messages received since the last call (the window opens with one). */
  takeMessages(): number {
    const n = this.counter.messages;
    this.counter.messages = 0;
    return n;
  }

  async tally(ranges: SeqRanges, graceMs: number): Promise<DeliveryTally> {
    return tallyAfterGrace(this.logs, ranges, graceMs);
  }

  /** The first viewer's window deliveries by event type. */
  byType(ranges: SeqRanges): LatencyByType {
    const groups = new Map<string, number[]>();
    for (const d of this.first) {
      const range = ranges[d.table];
      if (range === undefined || d.seq <= range[0] || d.seq > range[1]) continue;
      const list = groups.get(d.type) ?? [];
      list.push(d.ms);
      groups.set(d.type, list);
    }
    return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([type, values]) => {
      const s = summarise(values);
      return [type, { count: s.count, p50Ms: s.p50, p99Ms: s.p99, maxMs: s.max }];
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map(async (c) => c.endAsync(true)));
  }
}

/** The window's ranges from the seqs at its opening and closing. */
export function rangesBetween(opened: ReadonlyMap<string, number>, closed: ReadonlyMap<string, number>): SeqRanges {
  return Object.fromEntries([...closed].map(([table, to]) => [table, [opened.get(table) ?? 0, to] as const]));
}
