/**
 * The one typed map of MQTT topics (design principle 6, docs/mqtt.md): every topic zaptable uses, its payload
 * type, whether it is retained, its QoS and who may publish it. Topic strings are built and parsed only here.
 *
 * Layout under a configurable base topic (default `zaptable`, may have several levels such as `club/zaptable`):
 *
 *   <base>/bridge/<controller>/status  controller availability, retained, last will `offline`
 *   <base>/bridge/<controller>/tables  tables this controller runs, retained
 *   <base>/bridge/<controller>/health  what the controller and its broker refused, counted; retained
 *
 * `<controller>` is the controller's id (`controller.id`, default the host name), so that several controllers
 * share one broker and one base topic (a venue, docs/venue.md) without overwriting each other's retained
 * topics or last wills.
 *   <base>/<table>/status              table availability, retained, last will `offline`
 *   <base>/<table>/state               public state, retained
 *   <base>/<table>/events              public event stream
 *   <base>/<table>/health/<station>    station health, retained
 *   <base>/<table>/request/<client>/<name>   requests; <client> is the sender's MQTT client id (the brokers
 *                                            let a client publish only under its own id); <name> may have
 *                                            levels: `buzzer/arm`
 *   <base>/<table>/response/<client>/<name>  exactly one response per request, readable only by <client>
 */
import type { AuditPayload } from './audit-log.ts';
import type {
  Availability, BridgeHealthPayload, BridgeTablesPayload, HealthPayload, PublicEvent, RequestEnvelope, ResponsePayload,
  StatePayload,
} from './payloads.ts';

/** The payload type of every kind of topic. */
export interface TopicPayloads {
  bridgeStatus: Availability;
  bridgeTables: BridgeTablesPayload;
  bridgeHealth: BridgeHealthPayload;
  status: Availability;
  state: StatePayload;
  events: PublicEvent;
  health: HealthPayload;
  request: RequestEnvelope;
  response: ResponsePayload;
  audit: AuditPayload;
}

export type TopicKind = keyof TopicPayloads;

/** How a kind of topic is used. */
export interface TopicSpec {
  /** The topic below the base topic, with `<table>`, `<station>`, `<name>` placeholders (for docs and tests). */
  readonly pattern: string;
  readonly retained: boolean;
  readonly qos: 0 | 1;
  /** The role that publishes it (the brokers' ACLs in `acl.ts` enforce this). */
  readonly publisher: 'controller' | 'referee';
  /** `raw`: the bare string; `json`: JSON text. */
  readonly encoding: 'raw' | 'json';
}

/** The map itself. QoS 1 everywhere: a lost state or response costs more than a duplicate. */
export const TOPIC_SPECS = {
  bridgeStatus: { pattern: 'bridge/<controller>/status', retained: true, qos: 1, publisher: 'controller', encoding: 'raw' },
  bridgeTables: { pattern: 'bridge/<controller>/tables', retained: true, qos: 1, publisher: 'controller', encoding: 'json' },
  bridgeHealth: { pattern: 'bridge/<controller>/health', retained: true, qos: 1, publisher: 'controller', encoding: 'json' },
  status: { pattern: '<table>/status', retained: true, qos: 1, publisher: 'controller', encoding: 'raw' },
  state: { pattern: '<table>/state', retained: true, qos: 1, publisher: 'controller', encoding: 'json' },
  events: { pattern: '<table>/events', retained: false, qos: 1, publisher: 'controller', encoding: 'json' },
  health: { pattern: '<table>/health/<station>', retained: true, qos: 1, publisher: 'controller', encoding: 'json' },
  request: { pattern: '<table>/request/<client>/<name>', retained: false, qos: 1, publisher: 'referee', encoding: 'json' },
  response: { pattern: '<table>/response/<client>/<name>', retained: false, qos: 1, publisher: 'controller', encoding: 'json' },
  audit: { pattern: '<table>/audit', retained: true, qos: 1, publisher: 'controller', encoding: 'json' },
} as const satisfies Record<TopicKind, TopicSpec>;

declare const TOPIC_KIND: unique symbol;

/** A topic string that carries its kind, so `publish(topic, payload)` can check the payload type. */
export type Topic<K extends TopicKind> = string & { readonly [TOPIC_KIND]: K };

/** The default base topic. */
export const DEFAULT_BASE_TOPIC = 'zaptable';

/** The level under the base topic that belongs to the controller itself, so no table may be called that. */
export const BRIDGE_LEVEL = 'bridge';

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const REQUEST_NAME = /^[a-z0-9][a-z0-9-]{0,63}(\/[a-z0-9][a-z0-9-]{0,63}){0,3}$/;

/** Whether `id` can be a table id (one topic level of safe characters, not `bridge`). */
export function isTableId(id: string): boolean {
  return ID.test(id) && id !== BRIDGE_LEVEL;
}

/** Whether `id` can be a controller id (one topic level of safe characters, as a table id). */
export function isControllerId(id: string): boolean {
  return ID.test(id);
}

/** Whether `id` can be a station id in a health topic. */
export function isStationId(id: string): boolean {
  return ID.test(id);
}

const CLIENT_LEVEL = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether `id` can be the client level of a request topic (one topic level of safe characters). */
export function isClientLevel(id: string): boolean {
  return CLIENT_LEVEL.test(id);
}

/**
 * A client id `<name>-<random>` for one of zaptable's own connections: `name` (an account's username) with
 * every character that cannot stand in a topic level replaced by `_`, then 16 random hex digits, so the id can
 * be a request topic's client level and cannot be guessed.
 */
export function ownClientId(name: string, random: string): string {
  return `${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100)}-${random}`;
}

/** Whether `name` is well-formed as a request name (lower-case words, up to four levels). */
export function isRequestName(name: string): boolean {
  return REQUEST_NAME.test(name);
}

/** Why a base topic is unusable, or undefined when it is fine. */
export function baseTopicProblem(base: string): string | undefined {
  if (base.length === 0) return 'the base topic is empty';
  if (/[+#]/.test(base) || base.includes('\u0000')) return 'the base topic may not contain +, # or NUL';
  if (base.startsWith('$')) return 'the base topic may not start with $ (reserved for brokers)';
  if (base.split('/').some((level) => level.length === 0)) return 'the base topic may not have empty levels (leading, trailing or double /)';
  return undefined;
}

/** A topic recognised by `Topics.parse`. */
export type ParsedTopic =
  | { readonly kind: 'bridgeStatus' | 'bridgeTables' | 'bridgeHealth'; readonly controller: string }
  | { readonly kind: 'status' | 'state' | 'events' | 'audit'; readonly table: string }
  | { readonly kind: 'health'; readonly table: string; readonly station: string }
  | { readonly kind: 'request' | 'response'; readonly table: string; readonly client: string; readonly name: string };

/**
 * A message on a request topic, taken apart without judging it: the controller answers every one, also for
 * an unknown table, `bridge` as a table or empty levels, on the response topic that mirrors it.
 */
export interface RawRequestTopic {
  /** The level after the base (may be anything, even empty). */
  readonly table: string;
  /** The level after `request` (the sender's client id, as the broker's ACL enforced it). */
  readonly client: string;
  /** Everything after the client level (may be empty or have empty levels). */
  readonly name: string;
  /** The mirrored topic: `request` replaced by `response`, everything else as it came. */
  readonly responseTopic: Topic<'response'>;
}

/** Builds and parses the topics under one base topic. Builders throw on invalid ids (a programmer error). */
export class Topics {
  readonly base: string;

  constructor(base: string = DEFAULT_BASE_TOPIC) {
    const problem = baseTopicProblem(base);
    if (problem !== undefined) throw new Error(`${problem}: ${JSON.stringify(base)}`);
    this.base = base;
  }

  bridgeStatus(controller: string): Topic<'bridgeStatus'> {
    return `${this.bridge(controller)}/status` as Topic<'bridgeStatus'>;
  }

  bridgeTables(controller: string): Topic<'bridgeTables'> {
    return `${this.bridge(controller)}/tables` as Topic<'bridgeTables'>;
  }

  bridgeHealth(controller: string): Topic<'bridgeHealth'> {
    return `${this.bridge(controller)}/health` as Topic<'bridgeHealth'>;
  }

  /** The subscription to one bridge topic of every controller under the base: `<base>/bridge/+/<kind>`. */
  bridgeFilter(kind: 'status' | 'tables' | 'health'): string {
    return `${this.base}/${BRIDGE_LEVEL}/+/${kind}`;
  }

  /** The subscription that receives every request to one table. */
  tableRequestFilter(table: string): string {
    return `${this.table(table)}/request/#`;
  }

  status(table: string): Topic<'status'> {
    return `${this.table(table)}/status` as Topic<'status'>;
  }

  state(table: string): Topic<'state'> {
    return `${this.table(table)}/state` as Topic<'state'>;
  }

  events(table: string): Topic<'events'> {
    return `${this.table(table)}/events` as Topic<'events'>;
  }

  /** The table's audit trail of referee requests on hidden facts (retained, public). */
  audit(table: string): Topic<'audit'> {
    return `${this.table(table)}/audit` as Topic<'audit'>;
  }

  health(table: string, station: string): Topic<'health'> {
    if (!isStationId(station)) throw new Error(`invalid station id ${JSON.stringify(station)}`);
    return `${this.table(table)}/health/${station}` as Topic<'health'>;
  }

  /** Where the client `client` sends the request `name` to `table`. */
  request(table: string, client: string, name: string): Topic<'request'> {
    if (!isRequestName(name)) throw new Error(`invalid request name ${JSON.stringify(name)}`);
    if (!isClientLevel(client)) throw new Error(`invalid client id ${JSON.stringify(client)} (letters, digits, _ . -)`);
    return `${this.table(table)}/request/${client}/${name}` as Topic<'request'>;
  }

  /** Where `client` reads the response to its request `name` to `table`. */
  response(table: string, client: string, name: string): Topic<'response'> {
    if (!isClientLevel(client)) throw new Error(`invalid client id ${JSON.stringify(client)} (letters, digits, _ . -)`);
    return `${this.table(table)}/response/${client}/${name}` as Topic<'response'>;
  }

  /** The subscription that receives every request to every table (and to tables that do not exist). */
  requestFilter(): string {
    return `${this.base}/+/request/#`;
  }

  /** The subscription a client makes to read the responses to its own requests. */
  responseFilter(client: string): string {
    if (!isClientLevel(client)) throw new Error(`invalid client id ${JSON.stringify(client)} (letters, digits, _ . -)`);
    return `${this.base}/+/response/${client}/#`;
  }

  /** Takes apart any topic of the form `<base>/<x>/request/<client>[/<name…>]`, or returns null. */
  parseRequest(topic: string): RawRequestTopic | null {
    const prefix = `${this.base}/`;
    if (!topic.startsWith(prefix)) return null;
    const levels = topic.slice(prefix.length).split('/');
    const [table, kind, client, ...name] = levels;
    if (table === undefined || kind !== 'request' || client === undefined) return null;
    const responseTopic = [this.base, table, 'response', client, ...name].join('/') as Topic<'response'>;
    return { table, client, name: name.join('/'), responseTopic };
  }

  /** Recognises a topic under this base, or returns null (foreign or malformed topics). */
  parse(topic: string): ParsedTopic | null {
    const prefix = `${this.base}/`;
    if (!topic.startsWith(prefix)) return null;
    const levels = topic.slice(prefix.length).split('/');
    const [first, second, ...rest] = levels;
    if (first === undefined || second === undefined) return null;
    if (first === BRIDGE_LEVEL) {
      const [kind] = rest;
      if (levels.length !== 3 || !isControllerId(second)) return null;
      if (kind === 'status') return { kind: 'bridgeStatus', controller: second };
      if (kind === 'tables') return { kind: 'bridgeTables', controller: second };
      if (kind === 'health') return { kind: 'bridgeHealth', controller: second };
      return null;
    }
    if (!isTableId(first)) return null;
    const table = first;
    if (rest.length === 0 && (second === 'status' || second === 'state' || second === 'events' || second === 'audit')) {
      return { kind: second, table };
    }
    if (second === 'health' && rest.length === 1 && rest[0] !== undefined && isStationId(rest[0])) {
      return { kind: 'health', table, station: rest[0] };
    }
    const [client, ...name] = rest;
    if ((second === 'request' || second === 'response') && client !== undefined && isClientLevel(client)
      && name.length > 0 && name.every((level) => level.length > 0)) {
      return { kind: second, table, client, name: name.join('/') };
    }
    return null;
  }

  private bridge(controller: string): string {
    if (!isControllerId(controller)) throw new Error(`invalid controller id ${JSON.stringify(controller)} (letters, digits, _ . -)`);
    return `${this.base}/${BRIDGE_LEVEL}/${controller}`;
  }

  private table(table: string): string {
    if (!isTableId(table)) throw new Error(`invalid table id ${JSON.stringify(table)} (letters, digits, _ . -; not "${BRIDGE_LEVEL}")`);
    return `${this.base}/${table}`;
  }
}

/** The bytes sent for a payload of the given kind. */
export function encodePayload<K extends TopicKind>(kind: K, payload: TopicPayloads[K]): string {
  return TOPIC_SPECS[kind].encoding === 'raw' && typeof payload === 'string' ? payload : JSON.stringify(payload);
}
