/**
 * The audience of `bench venue`, in a child process of its own (forked by viewers.ts) so that its work is not
 * the bench's nor the servers': either the venue dashboard's WebSocket viewers (`/live`, the big screens and
 * phones) or the public broker's MQTT-over-WebSocket viewers (mqtt.js over `ws://`, anonymous, as an audience
 * page subscribes). Each viewer keeps a DeliveryLog of the events it receives (latency = receipt minus the
 * event's `at`, this machine's one clock); at the end the parent sends the window's seq ranges and this process
 * answers with the tally. Talks to the parent over IPC.
 */
import { connect, type MqttClient } from 'mqtt';
import type { WebSocket } from 'ws';
import { connectLiveViewer } from '../live-viewer.ts';
import { DeliveryLog, eventOf, tallyAfterGrace, type DeliveryTally, type SeqRanges } from './deliveries.ts';

export interface ViewerSetup {
  readonly kind: 'dashboard' | 'public';
  /** The dashboard's `http://…` (dashboard) or the public broker's `ws://…` (public). */
  readonly url: string;
  readonly baseTopic: string;
  readonly tables: readonly string[];
  readonly viewers: number;
  /** `all`: every viewer follows every table; `one`: viewer i follows table i mod tables. */
  readonly follow: 'all' | 'one';
}

export type ViewerRequest =
  | ViewerSetup
  /** The window opens: count messages from now. */
  | { readonly kind: 'mark' }
  | { readonly kind: 'tally'; readonly ranges: SeqRanges; readonly graceMs: number };

export type ViewerReport =
  | { readonly kind: 'ready'; readonly connectMs: number; readonly connectErrors: number }
  /** `messages`: every message (state, event, status…) the viewers received from the mark to the tally request. */
  | { readonly kind: 'tally'; readonly tally: DeliveryTally; readonly closes: number; readonly messages: number };

const BATCH = 25;
const CONNECT_TIMEOUT_MS = 60_000;

interface Counters { closes: number; messages: number; connectErrors: number }

function record(log: DeliveryLog, topic: string, payload: unknown): void {
  const event = eventOf(topic, payload as { seq?: unknown; at?: unknown });
  if (event !== undefined) log.record(event.table, event.seq, Date.now() - event.at);
}

async function dashboardViewer(setup: ViewerSetup, log: DeliveryLog, counters: Counters): Promise<WebSocket> {
  const base = `${setup.url.replace(/^http/, 'ws')}/live`;
  const url = log.follows === undefined ? base : `${base}?tables=${[...log.follows].join(',')}`;
  return connectLiveViewer(url, (data) => {
    counters.messages++;
    // Only events are measured: a state frame (a few KB) is not parsed. The topic leads the envelope.
    const head = data.toString('latin1', 0, Math.min(data.length, 160));
    if (!head.includes('/events"')) return;
    const { topic, payload } = JSON.parse(data.toString('utf8')) as { topic: string; payload: unknown };
    record(log, topic, payload);
  }, counters);
}

async function publicViewer(setup: ViewerSetup, i: number, log: DeliveryLog, counters: Counters): Promise<MqttClient> {
  const client = connect(setup.url, { clientId: `audience-${process.pid}-${i}`, protocolVersion: 4, reconnectPeriod: 1000 });
  // A broker busy serving the others may drop a connection attempt; mqtt.js tries again, as a page would.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`public viewer ${i} could not connect within ${CONNECT_TIMEOUT_MS / 1000} s`));
    }, CONNECT_TIMEOUT_MS);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    client.on('error', () => {
      counters.connectErrors++;
    });
  });
  client.on('close', () => {
    counters.closes++;
  });
  client.on('message', (topic, payload) => {
    counters.messages++;
    if (topic.endsWith('/events')) record(log, topic, JSON.parse(payload.toString('utf8')));
  });
  const tables = log.follows === undefined ? ['+'] : [...log.follows];
  await client.subscribeAsync(tables.flatMap((t) => [`${setup.baseTopic}/${t}/state`, `${setup.baseTopic}/${t}/events`]), { qos: 1 });
  return client;
}

async function run(setup: ViewerSetup, send: (m: ViewerReport) => void): Promise<void> {
  const started = performance.now();
  const counters: Counters = { closes: 0, messages: 0, connectErrors: 0 };
  const logs = Array.from({ length: setup.viewers }, (_, i) =>
    new DeliveryLog(setup.follow === 'all' ? undefined : new Set([setup.tables[i % setup.tables.length] ?? ''])));
  const close: (() => void)[] = [];
  for (let i = 0; i < logs.length; i += BATCH) {
    await Promise.all(logs.slice(i, i + BATCH).map(async (log, k) => {
      if (setup.kind === 'dashboard') {
        const socket = await dashboardViewer(setup, log, counters);
        close.push(() => {
          socket.terminate();
        });
      } else {
        const client = await publicViewer(setup, i + k, log, counters);
        close.push(() => {
          client.end(true);
        });
      }
    }));
  }
  counters.closes = 0;
  send({ kind: 'ready', connectMs: performance.now() - started, connectErrors: counters.connectErrors });
  const request = await new Promise<Extract<ViewerRequest, { kind: 'tally' }>>((resolve) => {
    process.on('message', (m: ViewerRequest) => {
      if (m.kind === 'mark') counters.messages = 0;
      if (m.kind === 'tally') resolve(m);
    });
  });
  const messages = counters.messages;
  const result = await tallyAfterGrace(logs, request.ranges, request.graceMs);
  send({ kind: 'tally', tally: result, closes: counters.closes, messages });
  for (const c of close) c();
}

process.once('message', (setup: ViewerRequest) => {
  if (setup.kind !== 'dashboard' && setup.kind !== 'public') return;
  run(setup, (m) => process.send?.(m)).then(() => {
    process.disconnect();
  }, (error: unknown) => {
    process.stderr.write(`bench venue ${setup.kind} viewers failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    // Its open sockets would keep it alive: the parent learns of the failure from the exit.
    process.exit(1);
  });
});
