/**
 * `GET /live` (WebSocket): on connect, the snapshot (every retained topic's latest value, then each table's
 * last events) as `{topic, payload}` envelopes, one per message; then every change in the same envelope.
 * `?tables=a,b` limits the stream to some tables (a phone following one table).
 *
 * Backpressure: a viewer whose socket has more than HIGH_WATER bytes unsent stops receiving directly. Its
 * retained topics are coalesced (only the newest value per topic is kept, so memory is bounded by the number of
 * topics) and its events are dropped (the `seq` gap tells the page it missed some; the state that follows is
 * the truth). Once the socket drains below LOW_WATER the coalesced values are sent. A viewer that stays behind
 * for STALL_MS is closed with 1013 ("try again later"); the page reconnects and gets a fresh snapshot.
 *
 * One write per viewer per turn: see TurnCork.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import type { HubMessage, MqttHub } from './mqtt-hub.ts';

const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
const STALL_MS = 30_000;
const CHECK_MS = 100;
const PING_MS = 30_000;

export interface LiveOptions {
  readonly hub: MqttHub;
  /** Events per table in the snapshot. Default 30. */
  readonly snapshotEvents?: number;
}

/** Counters for the benchmark and the tests. */
export interface LiveStats {
  viewers: number;
  sent: number;
  coalesced: number;
  droppedEvents: number;
  closedSlow: number;
  /** Writes of corked frames: one per viewer per turn in which it was sent anything (TurnCork). */
  flushes: number;
}

/**
 * Corks a viewer's TCP socket from its first frame in an event-loop turn to the end of that turn: what one update
 * brings (its events, then the new state, often several tables' in one turn) leaves in one `writev`, not one
 * syscall and one TCP segment per frame. At 8 controllers × 2 tables with 500 viewers following every table
 * (`zaptable bench venue --controllers 8`, docs/performance.md) the dashboard went from 46–47 % to 22 % of a core
 * and its viewers' p99 from 0.85–3.1 s to 0.15 s. ws has no public cork: `_socket` is the net.Socket it writes
 * to (ws is pinned in package.json; test/dashboard/live.test.ts fails if it is gone). Corked bytes still count in
 * `bufferedAmount`, so the backpressure above sees them.
 */
class TurnCork {
  private readonly corked = new Set<Socket>();

  constructor(private readonly onFlush: () => void) {}

  /** Corks the socket under `socket` until the end of this turn (once per turn; nothing if ws hides it). */
  hold(socket: WebSocket): void {
    const raw = (socket as unknown as { _socket?: Partial<Socket> })._socket;
    if (typeof raw?.cork !== 'function' || this.corked.has(raw as Socket)) return;
    if (this.corked.size === 0) {
      setImmediate(() => {
        this.release();
      });
    }
    raw.cork();
    this.corked.add(raw as Socket);
  }

  private release(): void {
    for (const raw of this.corked) {
      raw.uncork();
      this.onFlush();
    }
    this.corked.clear();
  }
}

class Viewer {
  /** Retained values held back while the socket is behind, by topic (newest wins). */
  pending: Map<string, Buffer> | undefined;
  behindSince = 0;
  alive = true;

  constructor(readonly socket: WebSocket, readonly tables: ReadonlySet<string> | undefined) {}

  wants(message: HubMessage): boolean {
    return message.table === undefined || this.tables === undefined || this.tables.has(message.table);
  }
}

function parseTables(query: unknown): ReadonlySet<string> | undefined {
  const raw = (query as { tables?: unknown } | undefined)?.tables;
  if (typeof raw !== 'string' || raw.length === 0) return undefined;
  return new Set(raw.split(',').map((t) => t.trim()).filter((t) => t.length > 0));
}

/** Registers `/live` and returns its counters. The hub must outlive the app (it is closed in onClose). */
export function registerLive(app: FastifyInstance, options: LiveOptions): LiveStats {
  const { hub } = options;
  const viewers = new Set<Viewer>();
  const stats: LiveStats = { viewers: 0, sent: 0, coalesced: 0, droppedEvents: 0, closedSlow: 0, flushes: 0 };
  const cork = new TurnCork(() => {
    stats.flushes++;
  });

  const send = (viewer: Viewer, frame: Buffer): void => {
    cork.hold(viewer.socket);
    viewer.socket.send(frame, { binary: false });
    stats.sent++;
  };

  const deliver = (viewer: Viewer, message: HubMessage): void => {
    if (!viewer.wants(message) || viewer.socket.readyState !== viewer.socket.OPEN) return;
    if (viewer.pending === undefined && viewer.socket.bufferedAmount <= HIGH_WATER) {
      send(viewer, message.frame);
      return;
    }
    if (viewer.pending === undefined) {
      viewer.pending = new Map();
      viewer.behindSince = Date.now();
    }
    if (message.retainedKind) {
      if (viewer.pending.has(message.topic)) stats.coalesced++;
      // Delete first so the newest value goes to the end (sent after older topics).
      viewer.pending.delete(message.topic);
      viewer.pending.set(message.topic, message.frame);
    } else {
      stats.droppedEvents++;
    }
  };

  const unsubscribe = hub.subscribe((message) => {
    for (const viewer of viewers) deliver(viewer, message);
  });

  const check = setInterval(() => {
    const now = Date.now();
    for (const viewer of viewers) {
      if (viewer.pending === undefined) continue;
      if (viewer.socket.bufferedAmount <= LOW_WATER) {
        const pending = viewer.pending;
        viewer.pending = undefined;
        for (const frame of pending.values()) send(viewer, frame);
      } else if (now - viewer.behindSince > STALL_MS) {
        stats.closedSlow++;
        viewer.socket.close(1013, 'too far behind; reconnect for a fresh snapshot');
      }
    }
  }, CHECK_MS);
  const ping = setInterval(() => {
    for (const viewer of viewers) {
      if (!viewer.alive) {
        viewer.socket.terminate();
        continue;
      }
      viewer.alive = false;
      viewer.socket.ping();
    }
  }, PING_MS);
  check.unref();
  ping.unref();

  app.addHook('onClose', async () => {
    unsubscribe();
    clearInterval(check);
    clearInterval(ping);
    for (const viewer of viewers) viewer.socket.close(1001, 'server shutting down');
    await Promise.resolve();
  });

  app.get('/live', { websocket: true }, (socket, request) => {
    const viewer = new Viewer(socket, parseTables(request.query));
    viewers.add(viewer);
    stats.viewers = viewers.size;
    socket.on('pong', () => {
      viewer.alive = true;
    });
    socket.on('message', () => {
      // Viewers only listen; anything they send is ignored (maxPayload keeps it small).
    });
    socket.on('close', () => {
      viewers.delete(viewer);
      stats.viewers = viewers.size;
    });
    for (const message of hub.snapshot(viewer.tables, options.snapshotEvents ?? 30)) send(viewer, message.frame);
    // The snapshot is complete: the page mounts now, with its data, instead of growing under the reader (layout shift).
    send(viewer, Buffer.from(JSON.stringify({ topic: `${hub.topics.base}/$snapshot`, payload: 'end' }), 'utf8'));
  });

  return stats;
}
