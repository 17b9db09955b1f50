/**
 * A test MQTT client ("probe") that records what it receives and lets a test await a message instead of
 * sleeping. MQTT 3.1.1 like the controller, so the suite means the same thing on aedes and Mosquitto.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { connect, connectAsync, type MqttClient } from 'mqtt';

export interface Received {
  readonly topic: string;
  readonly text: string;
  readonly retained: boolean;
}

export const WAIT_MS = 10_000;

export class Probe {
  readonly received: Received[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly client: MqttClient;

  /** The probe's MQTT client id (the client level of its request and response topics). */
  readonly clientId: string;

  private constructor(client: MqttClient, clientId: string) {
    this.client = client;
    this.clientId = clientId;
    client.on('message', (topic, payload, packet) => {
      this.received.push({ topic, text: payload.toString('utf8'), retained: packet.retain });
      for (const wake of this.waiters) wake();
    });
  }

  /** Connects as `username` (never reconnects: a refused or dropped probe stays down). */
  static async connect(url: string, username: string, password: string, clientId = `probe-${randomUUID()}`): Promise<Probe> {
    const client = await connectAsync(url, {
      protocolVersion: 4, username, password, clientId, reconnectPeriod: 0, connectTimeout: WAIT_MS,
    });
    (client.stream as Partial<Pick<Socket, 'setNoDelay'>>).setNoDelay?.(true);
    return new Probe(client, clientId);
  }

  /**
   * Subscribes (QoS 1); resolves with the granted QoS, 128 when refused. (aedes refuses in the SUBACK;
   * Mosquitto 2.0 grants and then withholds every message the ACL does not let the client read.)
   */
  async subscribe(filter: string): Promise<number> {
    try {
      const [grant] = await this.client.subscribeAsync(filter, { qos: 1 });
      return grant?.qos ?? 128;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('Subscribe error')) return 128;
      throw error;
    }
  }

  /**
   * Publishes with QoS 1 and resolves once the broker has dealt with it: `acked` (PUBACK; Mosquitto also acks
   * a publish its ACL dropped) or `closed` (the broker dropped the connection, as aedes does on a refusal).
   */
  async publish(topic: string, text: string, retain = false): Promise<'acked' | 'closed'> {
    if (!this.client.connected) return 'closed';
    return new Promise((resolve) => {
      const onClose = (): void => {
        resolve('closed');
      };
      this.client.once('close', onClose);
      this.client.publish(topic, text, { qos: 1, retain }, (error) => {
        this.client.off('close', onClose);
        resolve(error === undefined ? 'acked' : 'closed');
      });
    });
  }

  /** The messages received on `topic`, parsed as JSON. */
  json(topic: string): unknown[] {
    return this.received.filter((m) => m.topic === topic).map((m) => JSON.parse(m.text) as unknown);
  }

  /** Resolves with the first message (already received or arriving) that matches. */
  async waitFor(match: (message: Received) => boolean, what: string, timeoutMs = WAIT_MS): Promise<Received> {
    const found = (): Received | undefined => this.received.find(match);
    const now = found();
    if (now !== undefined) return now;
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        const message = found();
        if (message === undefined) return;
        cleanup();
        resolve(message);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; received: ${JSON.stringify(this.received.slice(-10))}`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
      };
      this.waiters.add(wake);
    });
  }

  /** Resolves with the first message on `topic` whose text satisfies `match`. */
  async waitOn(topic: string, match: (text: string) => boolean, what: string): Promise<Received> {
    return this.waitFor((m) => m.topic === topic && match(m.text), what);
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/**
 * Tries to connect and resolves with the CONNACK refusal code (4 bad username or password, 5 not authorised),
 * or throws if the connection was accepted.
 */
export async function refusalOf(url: string, username?: string, password?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = connect(url, {
      protocolVersion: 4, clientId: `probe-${randomUUID()}`, reconnectPeriod: 0, connectTimeout: WAIT_MS,
      ...(username === undefined ? {} : { username }), ...(password === undefined ? {} : { password }),
    });
    client.once('connect', () => {
      client.end(true);
      reject(new Error(`the broker accepted ${username ?? 'an anonymous client'}`));
    });
    client.once('error', (error) => {
      client.end(true);
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number') resolve(code);
      else reject(error);
    });
  });
}
