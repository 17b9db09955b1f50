/**
 * The other side of `zaptable bench dashboard`, run in a child process so that its work does not count as the
 * server's: N tables publishing state changes on MQTT (as the controller would) and M WebSocket viewers. Each
 * published state carries its publish time in `at` (fractional ms on this process's clock), so each viewer
 * measures publish → receive latency on the same clock. Talks to the parent over IPC.
 */
import { connect, type MqttClient } from 'mqtt';
import type { WebSocket } from 'ws';
import { connectLiveViewer } from '../../bench/live-viewer.ts';
import { summarise } from '../../kernel/stats.ts';
import { getEngine } from '../../rules/games.ts';
import { publicStateOf } from '../../transport/public-view.ts';
import { Topics } from '../../transport/topics.ts';

export interface WorldSetup {
  readonly brokerUrl: string;
  readonly dashboardUrl: string;
  readonly baseTopic: string;
  readonly username: string;
  readonly password: string;
  readonly tables: number;
  readonly viewers: number;
  /** State changes per second per table. */
  readonly rate: number;
  /** `all`: every viewer follows every table (a big screen); `one`: each follows one table (a phone). */
  readonly follow: 'all' | 'one';
  readonly warmupMs: number;
  readonly measureMs: number;
}

export type WorldMessage =
  | { readonly kind: 'ready'; readonly connectMs: number }
  | { readonly kind: 'measuring' }
  | {
    readonly kind: 'done'; readonly samples: number; readonly published: number; readonly p50: number; readonly p99: number;
    readonly max: number; readonly mean: number; readonly reconnects: number;
  };

const now = (): number => performance.timeOrigin + performance.now();

function tableId(i: number): string {
  return `bench-${String(i).padStart(3, '0')}`;
}

/** A real public view (a four-player Zapp Zerapp game after a roll, with its move list), sent again and again. */
function viewTemplate(): unknown {
  const engine = getEngine('zapp-zerapp');
  const setup = engine.setup({ players: ['ana', 'ben', 'cy', 'dee'] }, 1);
  if (!setup.ok) throw new Error(setup.message);
  let state = setup.state;
  for (const action of [{ type: 'roll' }]) {
    const r = engine.apply(state, action);
    if (r.ok) state = r.state;
  }
  return publicStateOf(engine, state, { seq: 0, at: 0 }).view;
}

async function connectViewer(
  url: string, lat: number[], counters: { closes: number }, measuring: () => boolean,
): Promise<WebSocket> {
  return connectLiveViewer(url, (data) => {
    if (!measuring()) return;
    // The publish time sits near the start of the state payload; no full JSON parse (the server's cost is measured, not ours).
    const i = data.indexOf('"at":');
    if (i < 0 || data.indexOf('/state"') < 0) return;
    const end = data.indexOf(',', i);
    const at = Number(data.toString('latin1', i + 5, end));
    if (Number.isFinite(at) && at > 1e12) lat.push(now() - at);
  }, counters);
}

async function run(setup: WorldSetup, send: (m: WorldMessage) => void): Promise<void> {
  const topics = new Topics(setup.baseTopic);
  const view = viewTemplate();
  const publisher: MqttClient = connect(setup.brokerUrl, {
    username: setup.username, password: setup.password, clientId: `bench-world-${process.pid}`, protocolVersion: 4, reconnectPeriod: 1000,
  });
  await new Promise<void>((resolve, reject) => {
    publisher.once('connect', () => {
      resolve();
    });
    publisher.once('error', reject);
  });
  const seqs = new Array<number>(setup.tables).fill(0);
  const publish = (i: number): void => {
    const seq = (seqs[i] ?? 0) + 1;
    seqs[i] = seq;
    // `at` first after the envelope fields, so viewers find it cheaply.
    const payload = `{"mode":"game","game":"zapp-zerapp","seq":${seq},"at":${now()},"view":${JSON.stringify(view)}}`;
    publisher.publish(topics.state(tableId(i)), payload, { qos: 1, retain: true });
  };
  const tables = { tables: Array.from({ length: setup.tables }, (_, i) => ({ id: tableId(i) })) };
  await publisher.publishAsync(topics.bridgeTables('bench'), JSON.stringify(tables), { qos: 1, retain: true });
  for (let i = 0; i < setup.tables; i++) {
    await publisher.publishAsync(topics.status(tableId(i)), 'online', { qos: 1, retain: true });
    publish(i);
  }
  const latencies: number[] = [];
  const counters = { closes: 0 };
  let measuring = false;
  const started = performance.now();
  const sockets: WebSocket[] = [];
  const base = `${setup.dashboardUrl.replace(/^http/, 'ws')}/live`;
  for (let i = 0; i < setup.viewers; i += 25) {
    const batch = Array.from({ length: Math.min(25, setup.viewers - i) }, async (_, k) => {
      const url = setup.follow === 'all' ? base : `${base}?tables=${tableId((i + k) % setup.tables)}`;
      return connectViewer(url, latencies, counters, () => measuring);
    });
    sockets.push(...await Promise.all(batch));
  }
  counters.closes = 0;
  send({ kind: 'ready', connectMs: performance.now() - started });
  // Each table changes `rate` times a second, the tables spread evenly over the period.
  const periodMs = 1000 / setup.rate;
  const timers = Array.from({ length: setup.tables }, (_, i) => setTimeout(() => {
    timers[i] = setInterval(() => {
      publish(i);
    }, periodMs);
    publish(i);
  }, (i * periodMs) / setup.tables));
  await new Promise((resolve) => setTimeout(resolve, setup.warmupMs));
  measuring = true;
  const before = seqs.reduce((a, b) => a + b, 0);
  send({ kind: 'measuring' });
  await new Promise((resolve) => setTimeout(resolve, setup.measureMs));
  measuring = false;
  const published = seqs.reduce((a, b) => a + b, 0) - before;
  for (const t of timers) clearInterval(t);
  const s = summarise(latencies);
  send({
    kind: 'done', samples: s.count, published, p50: s.p50, p99: s.p99, max: s.max, mean: s.mean, reconnects: counters.closes,
  });
  for (const s of sockets) s.terminate();
  await publisher.endAsync(true);
}

process.once('message', (setup: WorldSetup) => {
  run(setup, (m) => process.send?.(m)).catch((error: unknown) => {
    process.stderr.write(`bench world failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  }).finally(() => {
    process.disconnect();
  });
});
