/**
 * The referee's requests on hidden facts, listed where the players can read them (issue 18, item 2). A token
 * holder may act on hidden facts — correct a play, register a hand, undo — and each such request's answer
 * (`ok` or `HIDDEN_REASON`) can tell a hidden fact: a `play` naming another player's card followed by `undo`
 * says whether that card is in the hand. The referee is trusted with this (docs/mqtt.md, "What a referee token
 * holder is trusted with"), but not secretly and not in bulk: every such request is
 *
 * - **listed** on the public retained topic `<base>/<table>/audit` before it runs: when, which token holder,
 *   from which client, the request, the action's type and the player it names — never a card, a barrel, a
 *   reason text or the outcome, which would hand the hidden fact to everyone;
 * - **rate-limited** per token holder (default a burst of 20, then one a second): beyond it the request is
 *   answered `RATE_LIMITED` and does not run (the refused attempt is listed too, so probing shows either way).
 *   The simulator's requests on a simulated table are listed but not limited (see `admit`).
 */
import { HIDDEN_ACTION_TYPES as KILLER_21_HIDDEN } from '../rules/killer-21/public-refusal.ts';
import { HIDDEN_ACTION_TYPES as ZAPP_ZERAPP_HIDDEN } from '../rules/zapp-zerapp/public-refusal.ts';
import { HIDDEN_ACTION_TYPES as ZIP_ZAP_HIDDEN } from '../rules/zip-zap/public-refusal.ts';
import { RateLimiter, type Admission, type RateLimitSettings } from './rate-limit.ts';

/** Engine actions whose answer may depend on a hidden fact, in any game (each game's public-refusal.ts). */
export const HIDDEN_FACT_ACTIONS: ReadonlySet<string> = new Set([...ZIP_ZAP_HIDDEN, ...ZAPP_ZERAPP_HIDDEN, ...KILLER_21_HIDDEN]);

/** Requests a simulated table answers only (`simulate`, `simulated-hand`). */
const SIMULATOR_REQUESTS: ReadonlySet<string> = new Set(['simulate', 'simulated-hand']);

/** `simulate` ops whose answer is the table's verdict on an item (a card or barrel named by the requester). */
const ITEM_OPS = new Set(['place', 'tap', 'lift']);

/** What the audit trail tells about one request: no card, no barrel, no reason text, no outcome. */
export interface AuditEntry {
  /** When it arrived, ms since 1970 (controller clock). */
  readonly at: number;
  /** The token holder (the configured id, e.g. `dashboard`). */
  readonly by: string;
  /** The MQTT client it came from (the request topic's client level). */
  readonly client: string;
  /** The request's name (`action`, `correct`, `undo`, `simulate`, …). */
  readonly request: string;
  /** The engine action's type, for `action` and `correct`; the op, for `simulate`. */
  readonly action?: string;
  /** The player the request names, if any. */
  readonly player?: string;
  /** The station, for `simulate` and `simulated-hand`. */
  readonly station?: string;
  /** `refused` when the per-holder limit refused it (it did not run); otherwise `run`. */
  readonly admitted: 'run' | 'refused';
  /** The simulator's requests (a simulated table only) are listed but not limited. */
  readonly simulated?: true;
}

/** `<base>/<table>/audit` (retained): the latest entries, oldest first, and how many there were since the start. */
export interface AuditPayload {
  readonly entries: readonly AuditEntry[];
  readonly total: number;
  /** This start of the controller (the trail starts again at a restart; the event log keeps every action). */
  readonly epoch: number;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 64 ? value : undefined);
const record = (value: unknown): Record<string, unknown> =>
  (typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {});

export type AuditedRequest = Pick<AuditEntry, 'request' | 'action' | 'player' | 'station'>;

/**
 * The audit entry's public fields for a request on hidden facts, or undefined for a request that tells nothing
 * hidden (a dice roll, a move, a new game, the buzzer's requests). `params` are validated parameters.
 */
export function hiddenFactRequest(name: string, params: Readonly<Record<string, unknown>>): AuditedRequest | undefined {
  const pick = (fields: { action?: string | undefined; player?: string | undefined; station?: string | undefined }) => ({
    request: name,
    ...(fields.action === undefined ? {} : { action: fields.action }),
    ...(fields.player === undefined ? {} : { player: fields.player }),
    ...(fields.station === undefined ? {} : { station: fields.station }),
  });
  switch (name) {
    case 'action': case 'correct': {
      const action = record(params.action);
      const type = text(action.type);
      if (type === undefined || !HIDDEN_FACT_ACTIONS.has(type)) return undefined;
      return pick({ action: type, player: text(action.player) });
    }
    // Taking back the last action and seeing whether it was accepted is the second half of a probe.
    case 'undo': return pick({});
    // With the hands known (ORACLE), "nobody can play" is answered from the hands.
    case 'declare-stuck': return pick({ player: text(params.player) });
    case 'simulate': {
      const op = text(params.op);
      return op !== undefined && ITEM_OPS.has(op) ? pick({ action: op, station: text(params.station) }) : undefined;
    }
    case 'simulated-hand': return pick({ station: text(params.station) });
    // The full action log holds every hand dealt and every barrel placed: the whole game's hidden facts at once.
    case 'action-log': return pick({});
    default: return undefined;
  }
}

export interface AuditTrailOptions {
  /** Requests on hidden facts per token holder. Default DEFAULT_HIDDEN_FACT_LIMIT. */
  readonly limit?: RateLimitSettings;
  /** Entries kept per table on the topic. Default 50. */
  readonly keep?: number;
  readonly epoch: number;
  /** Wall clock, ms since 1970. Default Date.now. */
  readonly clock?: () => number;
  /** Monotonic ms, for the limit; injected for tests. */
  readonly now?: () => number;
}

/** A referee probing a hand needs dozens of requests; a referee correcting a game a handful an hour. */
export const DEFAULT_HIDDEN_FACT_LIMIT: RateLimitSettings = { ratePerS: 1, burst: 20 };

export class AuditTrail {
  private readonly limiter: RateLimiter;
  private readonly tables = new Map<string, { entries: AuditEntry[]; total: number }>();
  private readonly clock: () => number;

  constructor(private readonly options: AuditTrailOptions) {
    const now = options.now === undefined ? {} : { now: options.now };
    this.limiter = new RateLimiter({ ...(options.limit ?? DEFAULT_HIDDEN_FACT_LIMIT), ...now });
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Lists a request on hidden facts by `by` from `client` to `table` and says whether it may run; returns the
   * table's new payload with the admission.
   */
  admit(table: string, by: string, client: string, what: AuditedRequest): {
    readonly admission: Admission; readonly payload: AuditPayload;
  } {
    // The simulator panel is how a person plays a seat of the demo table, card by card in a race; on a simulated
    // table the simulator deals and `simulated-hand` shows a hand outright: listed, not limited.
    const simulated = SIMULATOR_REQUESTS.has(what.request);
    const admission: Admission = simulated ? { ok: true } : this.limiter.take(by);
    const trail = this.tables.get(table) ?? { entries: [], total: 0 };
    this.tables.set(table, trail);
    trail.entries.push({ at: this.clock(), by, client, ...what, admitted: admission.ok ? 'run' : 'refused', ...(simulated ? { simulated } : {}) });
    trail.total++;
    const keep = this.options.keep ?? 50;
    if (trail.entries.length > keep) trail.entries.splice(0, trail.entries.length - keep);
    return { admission, payload: { entries: [...trail.entries], total: trail.total, epoch: this.options.epoch } };
  }
}
