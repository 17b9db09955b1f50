/**
 * An independent witness on the broker for the dashboard tests: an MQTT client logged in with the controller's
 * account (its own client id) that records every request message that reached the broker, and the latest health
 * of every station. "A control without the token changes nothing" is proven here, at the broker, rather than by
 * trusting the dashboard.
 */
import { connect, type MqttClient } from 'mqtt';

/** A request message as the broker delivered it. */
export interface ObservedRequest {
  readonly table: string;
  /** The requesting client's id: requests go to `<base>/<table>/request/<clientId>/<name>` (docs/mqtt.md). */
  readonly clientId: string;
  readonly name: string;
  readonly body: Record<string, unknown>;
}

/** The parts of a station's health the harnesses wait on. */
export interface ObservedHealth {
  readonly station: string;
  readonly online: boolean;
  readonly clock?: { readonly uncertaintyUs: number | null };
}

export interface BrokerObserver {
  readonly client: MqttClient;
  readonly requests: ObservedRequest[];
  readonly health: Map<string, ObservedHealth>;
}

export async function startBrokerObserver(
  brokerUrl: string, baseTopic: string, account: { readonly username: string; readonly password: string },
): Promise<BrokerObserver> {
  const client = connect(brokerUrl, {
    ...account, clientId: `request-observer-${process.pid}-${Date.now()}`, protocolVersion: 4, reconnectPeriod: 0,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => {
      resolve();
    });
    client.once('error', reject);
  });
  const requests: ObservedRequest[] = [];
  const health = new Map<string, ObservedHealth>();
  client.on('message', (topic, payload) => {
    const [table = '', kind, ...rest] = topic.slice(baseTopic.length + 1).split('/');
    const text = payload.toString('utf8');
    if (kind === 'request') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      const [clientId = '', ...name] = rest;
      requests.push({ table, clientId, name: name.join('/'), body });
    } else if (kind === 'health' && text !== '') {
      const h = JSON.parse(text) as ObservedHealth;
      health.set(h.station, h);
    }
  });
  const granted = await client.subscribeAsync([`${baseTopic}/+/request/#`, `${baseTopic}/+/health/+`], { qos: 1 });
  if (granted.some((g) => g.qos === 128)) throw new Error(`observer subscription refused: ${JSON.stringify(granted)}`);
  return { client, requests, health };
}
