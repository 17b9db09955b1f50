/**
 * Several controllers on one broker (a venue, docs/venue.md): what each controller knows of the others, read
 * from their retained `bridge/<controller>/status` and `bridge/<controller>/tables`, and the rule that keeps
 * table ids unique across the venue.
 *
 * The rule: a table id is **taken** when another controller whose `bridge/<id>/status` is `online` lists it in
 * its `bridge/<id>/tables`. A retained list of a controller that is `offline` (shut down, or its last will
 * after a crash or a network loss) takes nothing, so a stale list never blocks a table for ever; a controller
 * restarted with its own id is not "another". A controller checks before it starts its tables
 * (`probeVenue`) and refuses the taken ones; while running it watches (`VenueWatch`) and reports a table that
 * another controller announced too (two started within the same instant) or refused because it runs here.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'mqtt';
import { tlsClientOptions, tlsProblem, type MqttTlsOptions } from './mqtt-tls.ts';
import type { RefusedTable } from './payloads.ts';
import type { ParsedTopic, Topics } from './topics.ts';

/** What one controller has announced. */
export interface VenueController {
  readonly id: string;
  /** From `bridge/<id>/status`; undefined before one arrived. */
  online: boolean | undefined;
  tables: readonly string[];
  refused: readonly RefusedTable[];
}

/** Something the running controller reports about its own tables (logged, and counted on bridge/health). */
export interface VenueNotice {
  /**
   * `TABLE_ID_TAKEN`: `other` refused to start `table`, which runs here. `TABLE_ID_CONFLICT`: `other` runs
   * `table` too (both started before either could see the other): one of them must be stopped and renamed.
   */
  readonly code: 'TABLE_ID_TAKEN' | 'TABLE_ID_CONFLICT';
  readonly table: string;
  readonly other: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The table ids of a `bridge/…/tables` payload (malformed entries are skipped). */
function tableIdsOf(payload: unknown): { tables: string[]; refused: RefusedTable[] } {
  if (!isRecord(payload)) return { tables: [], refused: [] };
  const tables = Array.isArray(payload.tables)
    ? payload.tables.flatMap((t) => (isRecord(t) && typeof t.id === 'string' ? [t.id] : [])) : [];
  const refusal = (r: unknown): RefusedTable[] => (isRecord(r) && typeof r.id === 'string' && typeof r.owner === 'string'
    ? [{ id: r.id, code: 'TABLE_ID_TAKEN', owner: r.owner }] : []);
  const refused = Array.isArray(payload.refused) ? payload.refused.flatMap(refusal) : [];
  return { tables, refused };
}

/** The venue as seen from one controller: every other controller's status and tables. */
export class VenueView {
  readonly controllers = new Map<string, VenueController>();

  constructor(readonly self: string) {}

  /** Takes one message on a bridge topic; returns whether it was one. */
  take(parsed: ParsedTopic | null, text: string): boolean {
    if (parsed === null || (parsed.kind !== 'bridgeStatus' && parsed.kind !== 'bridgeTables')) return false;
    let entry = this.controllers.get(parsed.controller);
    if (entry === undefined) {
      entry = { id: parsed.controller, online: undefined, tables: [], refused: [] };
      this.controllers.set(parsed.controller, entry);
    }
    if (parsed.kind === 'bridgeStatus') {
      entry.online = text === 'online' ? true : text === 'offline' ? false : undefined;
    } else {
      let payload: unknown;
      try {
        payload = text.length === 0 ? null : JSON.parse(text);
      } catch {
        payload = null;
      }
      const ids = tableIdsOf(payload);
      entry.tables = ids.tables;
      entry.refused = ids.refused;
    }
    return true;
  }

  /** The other controller that runs `table` now (online and listing it), or undefined. */
  ownerOf(table: string): string | undefined {
    for (const c of this.controllers.values()) {
      if (c.id !== this.self && c.online === true && c.tables.includes(table)) return c.id;
    }
    return undefined;
  }

  /**
   * Whether this controller answers a request to `table`, which it does not run: not when another online
   * controller runs it (that one answers), and for a table nobody runs only when this controller has the
   * smallest id among the online ones, so that exactly one UNKNOWN_TABLE goes back.
   */
  answersFor(table: string): boolean {
    if (this.ownerOf(table) !== undefined) return false;
    for (const c of this.controllers.values()) if (c.id !== this.self && c.online === true && c.id < this.self) return false;
    return true;
  }

  /** The tables of `mine` that another controller runs now, each with its owner. */
  taken(mine: readonly string[]): RefusedTable[] {
    return mine.flatMap((id) => {
      const owner = this.ownerOf(id);
      return owner === undefined ? [] : [{ id, code: 'TABLE_ID_TAKEN' as const, owner }];
    });
  }

  /** What other controllers say about the tables running here (see `VenueNotice`). */
  notices(mine: readonly string[]): VenueNotice[] {
    const out: VenueNotice[] = [];
    for (const c of this.controllers.values()) {
      if (c.id === this.self || c.online !== true) continue;
      for (const table of c.tables) if (mine.includes(table)) out.push({ code: 'TABLE_ID_CONFLICT', table, other: c.id });
      for (const r of c.refused) if (r.owner === this.self && mine.includes(r.id)) out.push({ code: 'TABLE_ID_TAKEN', table: r.id, other: c.id });
    }
    return out;
  }
}

export interface ProbeVenueOptions {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly tls?: MqttTlsOptions;
  readonly topics: Topics;
  /** This controller's id. */
  readonly controller: string;
  /** The client id of the probe's connection (one of the controller's own ids). */
  readonly clientId: string;
  /**
   * How long to wait for the broker at most, ms. Default: for ever, as the controller's own connections wait
   * (a Pi that boots before the venue's broker waits for it); `onWaiting` hears every 10 s of it.
   */
  readonly timeoutMs?: number;
  readonly onWaiting?: (waitedMs: number) => void;
}

/**
 * Reads the venue once, before the controller starts its tables: subscribes to every controller's status and
 * tables, then publishes a nonce on its own `bridge/<id>/sync` and waits for it to come back. The broker sends
 * a subscription's retained messages before anything published after it, so once the nonce is back every
 * retained status and list has arrived (no guessed settling time). Rejects when the broker refuses the login
 * or its certificate does not verify, or has not answered within `timeoutMs` (when set).
 */
export async function probeVenue(options: ProbeVenueOptions): Promise<VenueView> {
  const { topics, controller } = options;
  const view = new VenueView(controller);
  const syncTopic = `${topics.base}/bridge/${controller}/sync`;
  const nonce = randomBytes(8).toString('hex');
  const client = connect(options.url, {
    protocolVersion: 4, clientId: options.clientId, username: options.username, password: options.password, clean: true,
    reconnectPeriod: 2000, connectTimeout: 10_000, ...tlsClientOptions(options.tls),
  });
  const started = Date.now();
  const waiting = setInterval(() => {
    options.onWaiting?.(Date.now() - started);
  }, 10_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the venue broker ${options.url} did not answer within ${options.timeoutMs ?? 0} ms`));
      }, options.timeoutMs ?? 2 ** 31 - 1);
      client.on('message', (topic, payload) => {
        const text = payload.toString('utf8');
        if (topic === syncTopic) {
          if (text === nonce) {
            clearTimeout(timer);
            resolve();
          }
          return;
        }
        view.take(topics.parse(topic), text);
      });
      client.on('error', (error) => {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number' && code >= 1 && code <= 5) {
          clearTimeout(timer);
          reject(new Error(`the broker refused the controller's login (${error.message})`));
        }
        const tls = tlsProblem(error, options.tls);
        if (tls !== undefined) {
          clearTimeout(timer);
          reject(new Error(`the broker at ${options.url}: ${tls}`));
        }
      });
      // At every connection (clean session): a connection lost before the nonce came back subscribes again.
      client.on('connect', () => {
        client.subscribeAsync([topics.bridgeFilter('status'), topics.bridgeFilter('tables'), syncTopic], { qos: 1 })
          .then(async () => client.publishAsync(syncTopic, nonce, { qos: 1, retain: false }))
          .catch((error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
    });
    return view;
  } finally {
    clearInterval(waiting);
    await client.endAsync(true);
  }
}
