/**
 * One MQTT connection of the controller (mqtt.js, MQTT 3.1.1, which aedes and Mosquitto both speak), with
 * what Zigbee2MQTT users rely on:
 * - an availability topic: last will `offline` (retained), `online` (retained) once subscribed and republished;
 * - a store of the last value of every retained topic it publishes, **republished after every reconnect**, so a
 *   restarted broker (which may have lost its retained messages) serves current values again;
 * - subscriptions renewed after every reconnect.
 *
 * While disconnected, retained values are only stored (the newest wins at the next connect) and non-retained
 * messages are dropped and counted. A table channel with an event history replays the events it dropped, from
 * the log, through `onReconnect` (table-channel.ts); without one, the event `seq` gap tells a subscriber what
 * it missed.
 */
import type { Socket } from 'node:net';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { filterCovers } from './acl.ts';
import { silentLogger, type TransportLogger } from './logger.ts';
import { tlsClientOptions, tlsProblem, type MqttTlsOptions } from './mqtt-tls.ts';
import type { Availability } from './payloads.ts';

export type { MqttTlsOptions } from './mqtt-tls.ts';

export interface MqttConnectionOptions {
  /** `mqtt://host:port` or `mqtts://host:port`. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly clientId: string;
  /** Where `online` is published and `offline` is the last will. */
  readonly availabilityTopic: string;
  readonly tls?: MqttTlsOptions;
  /** Delay between reconnection attempts, ms. Default 2000. */
  readonly reconnectPeriodMs?: number;
  /** Give up one connection attempt after this long, ms. Default 10000. */
  readonly connectTimeoutMs?: number;
  /** Keepalive, s: a silently lost connection is noticed (and the will sent) after 1.5× this. Default 30. */
  readonly keepaliveS?: number;
  readonly logger?: TransportLogger;
}

/** Counters for the health page, the benchmark and the tests. */
export interface ConnectionStats {
  /** Successful connections, the first included. */
  readonly connects: number;
  /** Messages acknowledged by the broker (QoS 1). */
  readonly published: number;
  /** Non-retained messages dropped while disconnected, and publishes that failed. */
  readonly dropped: number;
  /** Time from publish to the broker's PUBACK, ms. */
  readonly latencyMs: { readonly count: number; readonly mean: number; readonly max: number };
}

/** How long `stop()` waits for the broker to acknowledge `offline`, ms. */
const STOP_ANNOUNCE_MS = 2000;

/** Receives a message; `retained` is true for a stored message delivered because of a new subscription. */
export type MessageHandler = (topic: string, payload: Buffer, retained: boolean) => void;

/** CONNACK refusals that retrying cannot fix (MQTT 3.1.1 return codes 1–5). */
function refusalCode(error: Error): number | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && code >= 1 && code <= 5 ? code : undefined;
}

export class MqttConnection {
  private readonly options: MqttConnectionOptions;
  private readonly logger: TransportLogger;
  private readonly retained = new Map<string, string>();
  private readonly subscriptions = new Map<string, MessageHandler>();
  private readonly connectHooks: (() => void)[] = [];
  private client: MqttClient | undefined;
  private stopping = false;
  private readonly counters = { connects: 0, published: 0, dropped: 0, latencyCount: 0, latencySum: 0, latencyMax: 0 };

  constructor(options: MqttConnectionOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Connects; resolves once connected, subscribed, republished and announced `online`. Keeps retrying while
   * the broker is unreachable; rejects (and stops) when the broker refuses the credentials or its certificate
   * does not verify (mqtt-tls.ts), configuration errors. After that, a lost connection is retried for ever.
   */
  async start(): Promise<void> {
    if (this.client !== undefined) throw new Error('the MQTT connection is already started');
    const { options } = this;
    const clientOptions: IClientOptions = {
      protocolVersion: 4,
      clientId: options.clientId,
      username: options.username,
      password: options.password,
      clean: true,
      keepalive: options.keepaliveS ?? 30,
      reconnectPeriod: options.reconnectPeriodMs ?? 2000,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      // Subscriptions are renewed by onConnected (mqtt.js would renew only those it saw granted).
      resubscribe: false,
      // QoS 0 is never used; nothing must be queued behind the connection's back.
      queueQoSZero: false,
      // No table of 65,536 pre-built packet-id buffers (6 MB of heap, for the whole process: mqtt-packet is
      // shared with the embedded broker); a 2-byte buffer per packet instead (docs/performance.md, memory).
      writeCache: false,
      will: { topic: options.availabilityTopic, payload: Buffer.from('offline' satisfies Availability), qos: 1, retain: true },
      ...tlsClientOptions(options.tls),
    };
    const client = connect(options.url, clientOptions);
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      this.deliver(topic, payload, packet.retain);
    });
    client.on('close', () => {
      // A client given up at a refusal (below) is not reconnecting.
      if (!this.stopping && this.client === client) this.logger.info('mqtt connection closed; reconnecting', { client: options.clientId });
    });
    await new Promise<void>((resolve, reject) => {
      let started = false;
      client.on('connect', () => {
        this.counters.connects++;
        noDelay(client);
        void this.onConnected(client).then(() => {
          if (!started) {
            started = true;
            resolve();
          }
        });
      });
      client.on('error', (error) => {
        // The socket of a client given up at a refusal may still report its end: said once is enough.
        if (this.client !== client) return;
        const code = refusalCode(error);
        const tls = tlsProblem(error, options.tls);
        if (!started && (code !== undefined || tls !== undefined)) {
          started = true;
          this.client = undefined;
          client.end(true);
          reject(new Error(tls === undefined
            ? `the MQTT broker at ${options.url} refused ${options.username}: ${error.message}` : `the MQTT broker at ${options.url}: ${tls}`));
          return;
        }
        this.logger.warn(tls ?? 'mqtt connection error', { client: options.clientId, error: error.message, code });
      });
    });
    // From now on a refusal (a broker restarted with other credentials) is retried rather than fatal.
    client.options.reconnectOnConnackError = true;
  }

  /** Whether the connection is up now. */
  get connected(): boolean {
    return this.client?.connected === true;
  }

  /**
   * Publishes a retained value and remembers it for republishing after a reconnect. While disconnected the
   * value is only remembered. Resolves when the broker acknowledged it (or at once while disconnected).
   */
  async setRetained(topic: string, payload: string): Promise<void> {
    this.retained.set(topic, payload);
    const client = this.client;
    if (client?.connected === true) await this.send(client, topic, payload, true);
  }

  /** Clears a retained topic (an empty retained message) and forgets it. */
  async clearRetained(topic: string): Promise<void> {
    this.retained.delete(topic);
    const client = this.client;
    if (client?.connected === true) await this.send(client, topic, '', true);
  }

  /** Publishes a non-retained message; resolves false when it was dropped (disconnected or failed). */
  async publish(topic: string, payload: string): Promise<boolean> {
    const client = this.client;
    if (client?.connected !== true) {
      this.counters.dropped++;
      return false;
    }
    return this.send(client, topic, payload, false);
  }

  /**
   * Subscribes (QoS 1) and routes matching messages to `handler`; renewed after every reconnect. Call before
   * `start()` (or while connected). One handler per filter.
   */
  async subscribe(filter: string, handler: MessageHandler): Promise<void> {
    this.subscriptions.set(filter, handler);
    const client = this.client;
    if (client?.connected === true) await this.subscribeOn(client, [filter]);
  }

  /**
   * Runs `hook` at every (re)connection, once subscribed and before the retained values are republished and
   * `online` announced: a table channel replays the events it could not send there, so a subscriber gets the
   * missed events, then the current state (docs/venue-offline.md). The hook publishes synchronously.
   */
  onReconnect(hook: () => void): void {
    this.connectHooks.push(hook);
  }

  stats(): ConnectionStats {
    const c = this.counters;
    return {
      connects: c.connects, published: c.published, dropped: c.dropped,
      latencyMs: { count: c.latencyCount, mean: c.latencyCount === 0 ? 0 : c.latencySum / c.latencyCount, max: c.latencyMax },
    };
  }

  /** Announces `offline` (when connected) and disconnects cleanly. Safe to call twice. */
  async stop(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    this.stopping = true;
    this.client = undefined;
    if (client.connected) {
      // Bounded: a connection that dies right now must not hold up shutdown (the will says offline then).
      const announced = this.send(client, this.options.availabilityTopic, 'offline' satisfies Availability, true);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([announced, new Promise((resolve) => (timer = setTimeout(resolve, STOP_ANNOUNCE_MS)))]);
      clearTimeout(timer);
      await client.endAsync(!client.connected);
    } else {
      await client.endAsync(true);
    }
  }

  private async onConnected(client: MqttClient): Promise<void> {
    try {
      await this.subscribeOn(client, [...this.subscriptions.keys()]);
      for (const hook of this.connectHooks) hook();
      // All republishes are queued synchronously, so a newer value set meanwhile is written after its older one.
      const sends = [...this.retained].map(([topic, payload]) => this.send(client, topic, payload, true));
      await Promise.all(sends);
      await this.send(client, this.options.availabilityTopic, 'online' satisfies Availability, true);
      this.logger.info('mqtt connected', { client: this.options.clientId, republished: sends.length });
    } catch (error) {
      // The connection dropped half-way; the next connect does it all again.
      this.logger.warn('mqtt connect sequence interrupted', { client: this.options.clientId, error: (error as Error).message });
    }
  }

  private async subscribeOn(client: MqttClient, filters: readonly string[]): Promise<void> {
    if (filters.length === 0) return;
    const granted = await client.subscribeAsync([...filters], { qos: 1 });
    for (const grant of granted) {
      if (grant.qos > 2) this.logger.warn('mqtt subscription refused by the broker (check its ACL)', { filter: grant.topic });
    }
  }

  private async send(client: MqttClient, topic: string, payload: string, retain: boolean): Promise<boolean> {
    const started = performance.now();
    try {
      await client.publishAsync(topic, payload, { qos: 1, retain });
    } catch (error) {
      this.counters.dropped++;
      this.logger.warn('mqtt publish failed', { topic, error: (error as Error).message });
      return false;
    }
    const ms = performance.now() - started;
    const c = this.counters;
    c.published++;
    c.latencyCount++;
    c.latencySum += ms;
    c.latencyMax = Math.max(c.latencyMax, ms);
    return true;
  }

  private deliver(topic: string, payload: Buffer, retained: boolean): void {
    for (const [filter, handler] of this.subscriptions) {
      if (filterCovers(filter, topic)) handler(topic, payload, retained);
    }
  }
}

/**
 * Turns Nagle's algorithm off on the client's socket (mqtt.js does not): without it a small publish can wait
 * for the previous packet's ACK, which the peer delays by up to ~40 ms — felt on a buzzer.
 */
function noDelay(client: MqttClient): void {
  const socket = client.stream as Partial<Pick<Socket, 'setNoDelay'>>;
  socket.setNoDelay?.(true);
}
