/**
 * Cross-field checks outside `tables:`: the broker settings that belong together, identities on the
 * embedded broker, ports that would clash when everything runs on one machine, and the buzzer hub's wiring.
 */
import { configError, type ConfigError } from './errors.ts';
import { list, rec, text } from './loose.ts';

function checkMqtt(mqtt: Record<string, unknown>, dashboard: Record<string, unknown>): ConfigError[] {
  const errors: ConfigError[] = [];
  if (mqtt.broker === 'external' && rec(mqtt.external).url === undefined) {
    errors.push(configError('CONFIG_INVALID', 'mqtt.external.url', 'is required when mqtt.broker is external'));
  }
  const users: { name: string | undefined; path: string }[] = [
    { name: text(rec(mqtt.controller).username), path: 'mqtt.controller.username' },
    { name: text(rec(dashboard.mqtt).username), path: 'dashboard.mqtt.username' },
    ...list(mqtt.clients).map((c, i) => ({ name: text(rec(c).username), path: `mqtt.clients.${i}.username` })),
  ];
  for (const at of ['external', 'venue'] as const) errors.push(...checkClientCertificate(rec(rec(mqtt[at]).tls), `mqtt.${at}.tls`));
  const seen = new Map<string, string>();
  for (const u of users) {
    if (u.name === undefined) continue;
    const first = seen.get(u.name);
    if (first !== undefined) errors.push(configError('CONFIG_CONFLICT', u.path, `user name "${u.name}" is already used by ${first}`));
    else seen.set(u.name, u.path);
  }
  return errors;
}

/** A client certificate is presented with its key: one without the other would fail only at the handshake. */
function checkClientCertificate(tls: Record<string, unknown>, at: string): ConfigError[] {
  const cert = text(tls.cert);
  const key = text(tls.key);
  if (cert !== undefined && key === undefined) {
    return [configError('CONFIG_INVALID', `${at}.cert`, `needs ${at}.key too (the client certificate's private key file)`)];
  }
  if (key !== undefined && cert === undefined) {
    return [configError('CONFIG_INVALID', `${at}.key`, `needs ${at}.cert too (the client certificate the key belongs to)`)];
  }
  return [];
}

/** The embedded broker's ports and the dashboard's share one machine: the same number twice cannot bind. */
function checkPorts(mqtt: Record<string, unknown>, dashboard: Record<string, unknown>): ConfigError[] {
  const ports: { port: unknown; path: string }[] = [];
  if (mqtt.broker === 'embedded') {
    ports.push({ port: rec(mqtt.embedded).port, path: 'mqtt.embedded.port' }, { port: rec(mqtt.embedded).websocketPort, path: 'mqtt.embedded.websocketPort' });
  }
  if (dashboard.enabled !== false) ports.push({ port: dashboard.port, path: 'dashboard.port' });
  const errors: ConfigError[] = [];
  const seen = new Map<number, string>();
  for (const { port, path } of ports) {
    if (typeof port !== 'number') continue;
    const first = seen.get(port);
    if (first !== undefined) errors.push(configError('CONFIG_CONFLICT', path, `port ${port} is already used by ${first}`));
    else seen.set(port, path);
  }
  return errors;
}

/**
 * The hub: unique button ids, one job per pin (a lamp on a button's pin would turn its pull-up into an output),
 * never D0/D1. Whether the board has a pin at all is checked by the hub against the board's capability report.
 */
function checkHub(hardware: Record<string, unknown>): ConfigError[] {
  const hub = hardware.buzzerHub;
  if (hub === undefined) return [];
  const errors: ConfigError[] = [];
  const ids = new Map<string, number>();
  const pins = new Map<number, string>();
  const claim = (pin: unknown, path: string): void => {
    if (typeof pin !== 'number') return;
    // The hub's board speaks StandardFirmata over its serial port: D0 (RX) and D1 (TX) are that link.
    if (pin === 0 || pin === 1) {
      errors.push(configError('CONFIG_INVALID', path, `pin ${pin} is D${pin}, the board's serial ${pin === 0 ? 'RX' : 'TX'} (StandardFirmata's link): use 2–13 or A0–A5 = 14–19 on an Uno`));
      return;
    }
    const owner = pins.get(pin);
    if (owner !== undefined) errors.push(configError('CONFIG_CONFLICT', path, `pin ${pin} is already used by ${owner}`));
    else pins.set(pin, path);
  };
  list(rec(hub).buttons).forEach((b, i) => {
    const id = text(rec(b).id);
    if (id !== undefined && ids.has(id)) {
      errors.push(configError('CONFIG_CONFLICT', `hardware.buzzerHub.buttons.${i}.id`, `button id "${id}" is already used by button ${ids.get(id) ?? ''}`));
    } else if (id !== undefined) ids.set(id, i);
    claim(rec(b).pin, `hardware.buzzerHub.buttons.${i}.pin`);
    claim(rec(b).lamp, `hardware.buzzerHub.buttons.${i}.lamp`);
  });
  claim(rec(hub).piezo, 'hardware.buzzerHub.piezo');
  const hubPort = text(rec(hub).port);
  const serialPorts = list(rec(hardware.serial).ports);
  if (hardware.kind === 'serial' && hubPort !== undefined && serialPorts.includes(hubPort)) {
    errors.push(configError('CONFIG_CONFLICT', 'hardware.buzzerHub.port', `${hubPort} is also in hardware.serial.ports: one port, one board`));
  }
  return errors;
}

/** The cross-field checks outside `tables:`. */
export function checkSystem(config: unknown): ConfigError[] {
  const c = rec(config);
  const mqtt = rec(c.mqtt);
  const dashboard = rec(c.dashboard);
  return [...checkMqtt(mqtt, dashboard), ...checkPorts(mqtt, dashboard), ...checkHub(rec(c.hardware))];
}
