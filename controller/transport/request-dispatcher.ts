/**
 * Turns one request message into exactly one response (design principles 6 and 9). Checks, in order: size,
 * JSON, envelope, table, request name, token, idempotent replay, parameters; only then calls the handler the table
 * runtime registered. Every check that fails answers with a stable code and calls no handler, so a bad or
 * unauthorised request changes nothing. `dispatch` never rejects: a throwing or hanging handler is answered
 * with HANDLER_FAILED or TIMEOUT.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { transportError, type RequestError, type TransportErrorCode } from './errors.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import type { JsonValue, ResponsePayload, Transaction } from './payloads.ts';
import {
  REQUESTS, isKnownRequest, type HandlerResult, type Identity, type RequestContext, type RequestHandler, type RequestName,
} from './requests.ts';
import { RequestTokens, type RequestToken } from './request-tokens.ts';
import { RateLimiter, type RateLimitSettings } from './rate-limit.ts';
import { RequestQueue, type RequestQueueOptions, type RequestQueueStats } from './request-queue.ts';
import { hiddenFactRequest, type AuditPayload, type AuditTrail } from './audit-log.ts';
import { MemoryTransactionStore, transactionKey, type TransactionStore } from './transaction-cache.ts';
import { isTableId } from './topics.ts';

/** Where a request came from and what it asks, as read from its topic. */
export interface RequestAddress {
  readonly table: string;
  /** The sender's client id (the request topic's client level). */
  readonly client: string;
  readonly name: string;
}

export interface RequestDispatcherOptions {
  /** The tokens that may send requests (from the configuration). */
  readonly tokens: readonly RequestToken[];
  /** The tables this controller runs; a request to any other is answered UNKNOWN_TABLE. Default: any table id. */
  readonly tables?: readonly string[];
  /** A handler that has not answered after this long is answered with TIMEOUT. Default 10 s. */
  readonly timeoutMs?: number;
  /** Larger payloads are answered with PAYLOAD_TOO_LARGE before parsing. Default 64 KiB. */
  readonly maxPayloadBytes?: number;
  /** How long a transaction's answer is replayed to duplicates, ms. Default 10 min. */
  readonly idempotencyWindowMs?: number;
  /** How many answers the default in-memory store keeps per table. Default 10,000. */
  readonly idempotencyMaxEntries?: number;
  /** Where answers are kept for replay; default in memory (the app passes one backed by the event log). */
  readonly transactionStore?: TransactionStore;
  /**
   * Requests per MQTT client (the request topic's client level): a token bucket, checked right after the
   * envelope is read, before the table, the token or the handler cost anything. Default DEFAULT_RATE_LIMIT;
   * null: no limit (benchmarks that break it on purpose).
   */
  readonly rateLimit?: RateLimitSettings | null;
  /** How many requests one client, and all of them, may have waiting for an answer. */
  readonly queue?: RequestQueueOptions;
  /**
   * Requests on hidden facts (`audit-log.ts`): listed through `publish` before they run, and limited per token
   * holder. Without it they are neither listed nor limited (unit tests).
   */
  readonly audit?: { readonly trail: AuditTrail; readonly publish: (table: string, payload: AuditPayload) => void };
  /** Monotonic ms, for the default store's window and the rate limit; injected for tests. */
  readonly now?: () => number;
  readonly logger?: TransportLogger;
}

/**
 * The default per-client limit: far above what a person at a dashboard sends (a few requests a second; the
 * dashboard relays every referee's requests through one client), far below what a flood sends.
 */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = { ratePerS: 100, burst: 200 };

/** Counters for the health page and the tests. */
export interface DispatcherStats {
  readonly received: number;
  readonly ok: number;
  /** Error responses by code (transport codes and handler codes). */
  readonly errors: Readonly<Record<string, number>>;
  /** Duplicates answered from the transaction cache without running the handler. */
  readonly replayed: number;
  /** The requests waiting for their answer (also counted in `errors.RATE_LIMITED` when the queue was full). */
  readonly queue: RequestQueueStats;
}

const MAX_TRANSACTION_LENGTH = 128;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTransaction(value: unknown): value is Transaction {
  return (typeof value === 'string' && value.length > 0 && value.length <= MAX_TRANSACTION_LENGTH)
    || (typeof value === 'number' && Number.isSafeInteger(value));
}

function errorResponse(error: RequestError, transaction: Transaction | null): ResponsePayload {
  return { status: 'error', data: null, error: { code: error.code, message: error.message }, transaction };
}

function fail(code: TransportErrorCode, transaction: Transaction | null, detail?: string): ResponsePayload {
  return errorResponse(transportError(code, detail), transaction);
}

/** RATE_LIMITED, with the wait after which the same request would be admitted. */
function limited(transaction: Transaction | null, retryAfterMs: number, why: string): ResponsePayload {
  const { code, message } = transportError('RATE_LIMITED', `${why}; retry after ${retryAfterMs} ms`);
  return { status: 'error', data: null, error: { code, message, retryAfterMs }, transaction };
}

function roleAllows(have: Identity['role'], need: Identity['role']): boolean {
  return have === 'controller' || have === need || need === 'viewer';
}

/** Who sent a request open to viewers without a token (`history`): anyone the broker let publish it. */
const ANONYMOUS_VIEWER: Identity = { id: 'viewer', role: 'viewer' };

// Handlers are stored with their parameter types erased; `onRequest` is where the types meet.
type AnyHandler = (params: unknown, context: RequestContext) => Promise<HandlerResult<RequestName>>;

export class RequestDispatcher {
  private readonly options: RequestDispatcherOptions;
  private readonly handlers = new Map<RequestName, AnyHandler>();
  private readonly validators = new Map<RequestName, ValidateFunction>();
  private readonly logger: TransportLogger;
  private readonly tokens: RequestTokens;
  private store: TransactionStore | undefined;
  /** Answers still being worked out: a repeat arriving meanwhile waits for the same one. */
  private readonly inFlight = new Map<string, Promise<ResponsePayload>>();
  private ajv: Ajv | undefined;
  private readonly limiter: RateLimiter | undefined;
  private readonly queue: RequestQueue;
  private readonly counters = { received: 0, ok: 0, replayed: 0, errors: {} as Record<string, number> };

  /** Throws on unusable tokens (too short, duplicated): a configuration error, found at start-up. */
  constructor(options: RequestDispatcherOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.tokens = new RequestTokens(options.tokens);
    const rate = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
    const now = options.now === undefined ? {} : { now: options.now };
    this.limiter = rate === null ? undefined : new RateLimiter({ ...rate, ...now });
    this.queue = new RequestQueue(options.queue);
  }

  /**
   * Registers the handler of a request (one per name; a second registration replaces the first). Returns the
   * function that unregisters it; without a handler the request is answered with NOT_AVAILABLE.
   */
  onRequest<N extends RequestName>(name: N, handler: RequestHandler<N>): () => void {
    const erased = handler as unknown as AnyHandler;
    this.handlers.set(name, erased);
    return () => {
      if (this.handlers.get(name) === erased) this.handlers.delete(name);
    };
  }

  /**
   * Answers a request that arrived on `<base>/<table>/request/<client>/<name>` (the parts as they came: any of
   * them may be malformed, and is answered with an error code). Never rejects.
   */
  async dispatch(request: RequestAddress, payload: Uint8Array | string): Promise<ResponsePayload> {
    this.counters.received++;
    const response = await this.answer(request, payload);
    if (response.status === 'ok') this.counters.ok++;
    else this.counters.errors[response.error.code] = (this.counters.errors[response.error.code] ?? 0) + 1;
    return response;
  }

  stats(): DispatcherStats {
    return { ...this.counters, errors: { ...this.counters.errors }, queue: this.queue.stats() };
  }

  private answer(request: RequestAddress, payload: Uint8Array | string): Promise<ResponsePayload> | ResponsePayload {
    const { table, client, name } = request;
    const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    const max = this.options.maxPayloadBytes ?? 64 * 1024;
    if (bytes.length > max) return this.refuse(table, name, fail('PAYLOAD_TOO_LARGE', null, `${bytes.length} bytes, at most ${max}`));
    let body: unknown;
    try {
      // fatal: bytes that are not UTF-8 are bad JSON, not text with replacement characters.
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return this.refuse(table, name, fail('BAD_JSON', null));
    }
    if (!isPlainObject(body)) return this.refuse(table, name, fail('INVALID_REQUEST', null, 'a request is a JSON object'));
    const { token, transaction: rawTransaction, ...params } = body;
    if (rawTransaction !== undefined && !isTransaction(rawTransaction)) {
      return this.refuse(table, name, fail('INVALID_REQUEST', null,
        `transaction must be a non-empty string of at most ${MAX_TRANSACTION_LENGTH} characters or an integer`));
    }
    const transaction = rawTransaction ?? null;
    const admitted = this.limiter?.take(client) ?? { ok: true };
    if (!admitted.ok) return this.refuse(table, name, limited(transaction, admitted.retryAfterMs, 'too many requests from this client'));
    const tables = this.options.tables;
    if (!isTableId(table) || (tables !== undefined && !tables.includes(table))) {
      return this.refuse(table, name, fail('UNKNOWN_TABLE', transaction, JSON.stringify(table.slice(0, 80))));
    }
    if (!isKnownRequest(name)) return this.refuse(table, name, fail('UNKNOWN_REQUEST', transaction, JSON.stringify(name)));
    const identity = this.tokens.identify(token) ?? (REQUESTS[name].role === 'viewer' ? ANONYMOUS_VIEWER : null);
    if (identity === null || !roleAllows(identity.role, REQUESTS[name].role)) {
      return this.refuse(table, name, fail('UNAUTHORIZED', transaction));
    }
    const run = async (): Promise<ResponsePayload> => this.execute(name, params, { table, client, identity, transaction });
    if (transaction === null) return this.queued(client, transaction, run);
    const windowMs = this.options.idempotencyWindowMs ?? 600_000;
    const store = this.store ??= this.options.transactionStore ?? new MemoryTransactionStore({
      maxEntriesPerTable: this.options.idempotencyMaxEntries ?? 10_000, now: this.options.now ?? (() => performance.now()),
    });
    const key = transactionKey(table, client, name, identity.id, transaction);
    const cached = this.inFlight.get(key) ?? store.recall(key, windowMs);
    if (cached !== undefined) {
      this.counters.replayed++;
      this.logger.debug('mqtt request replayed from its transaction', { table, request: name, identity: identity.id });
      return cached;
    }
    const answer = this.queued(client, transaction, run).then((response) => {
      // A refusal for a full queue is not the transaction's answer: a repeat must run.
      if (response.status === 'error' && response.error.code === 'RATE_LIMITED') return response;
      try {
        store.remember(key, table, response, windowMs);
      } catch (error) {
        // The answer still goes out; only a repeat would run again.
        this.logger.warn('mqtt answer could not be remembered', { table, error: error instanceof Error ? error.message : String(error) });
      }
      return response;
    }).finally(() => {
      this.inFlight.delete(key);
    });
    this.inFlight.set(key, answer);
    return answer;
  }

  /** Runs `work` holding a place in the queue, or answers RATE_LIMITED when the queue has none for `client`. */
  private async queued(
    client: string, transaction: Transaction | null, work: () => Promise<ResponsePayload>,
  ): Promise<ResponsePayload> {
    const ticket = this.queue.enter(client);
    if (!ticket.ok) {
      const why = ticket.full === 'client' ? 'too many requests from this client are waiting' : 'too many requests are waiting';
      return limited(transaction, ticket.retryAfterMs, why);
    }
    try {
      return await work();
    } finally {
      ticket.leave();
    }
  }

  private async execute(name: RequestName, params: Record<string, unknown>, context: RequestContext): Promise<ResponsePayload> {
    const { table, transaction } = context;
    const validate = this.validator(name);
    if (!validate(params)) {
      const ajv = this.ajv;
      const detail = ajv === undefined ? 'invalid parameters' : ajv.errorsText(validate.errors, { dataVar: 'params' });
      return this.refuse(table, name, fail('INVALID_REQUEST', transaction, detail));
    }
    const handler = this.handlers.get(name);
    if (handler === undefined) return this.refuse(table, name, fail('NOT_AVAILABLE', transaction, name));
    const audited = this.options.audit === undefined ? undefined : hiddenFactRequest(name, params);
    if (audited !== undefined && this.options.audit !== undefined) {
      const { admission, payload } = this.options.audit.trail.admit(table, context.identity.id, context.client, audited);
      this.options.audit.publish(table, payload);
      if (!admission.ok) {
        return this.refuse(table, name, limited(transaction, admission.retryAfterMs, 'too many requests on hidden facts from this token holder'));
      }
    }
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ResponsePayload>((resolve) => {
      timer = setTimeout(() => {
        this.logger.warn('mqtt request handler timed out', { table, request: name, timeoutMs });
        resolve(fail('TIMEOUT', transaction, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.run(handler, params, context, name), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(handler: AnyHandler, params: unknown, context: RequestContext, name: RequestName): Promise<ResponsePayload> {
    const { table, transaction } = context;
    try {
      const result: unknown = await handler(params, context);
      if (isPlainObject(result) && result.ok === true) {
        return { status: 'ok', data: (result.data ?? null) as JsonValue, error: null, transaction };
      }
      if (isPlainObject(result) && result.ok === false && typeof result.code === 'string' && typeof result.message === 'string') {
        return errorResponse({ code: result.code, message: result.message }, transaction);
      }
      this.logger.warn('mqtt request handler returned a malformed result', { table, request: name });
      return fail('HANDLER_FAILED', transaction);
    } catch (error) {
      // The message stays in the log: a stack trace is not for a public response topic.
      this.logger.warn('mqtt request handler threw', { table, request: name, error: error instanceof Error ? error.message : String(error) });
      return fail('HANDLER_FAILED', transaction);
    }
  }

  private validator(name: RequestName): ValidateFunction {
    let validate = this.validators.get(name);
    if (validate === undefined) {
      this.ajv ??= new Ajv({ allErrors: true, strict: true });
      validate = this.ajv.compile(REQUESTS[name].params);
      this.validators.set(name, validate);
    }
    return validate;
  }

  private refuse(table: string, name: string, response: ResponsePayload): ResponsePayload {
    if (response.status === 'error') {
      // The request name comes from the topic and may be anything: shown quoted and cut. An unauthorised
      // request is a warning (someone without a valid token tried); the others are mistakes.
      const fields = {
        table: JSON.stringify(table.slice(0, 80)), request: JSON.stringify(name.slice(0, 80)), code: response.error.code,
      };
      if (response.error.code === 'UNAUTHORIZED') this.logger.warn('mqtt request refused: UNAUTHORIZED', fields);
      else this.logger.info('mqtt request refused', fields);
    }
    return response;
  }
}
