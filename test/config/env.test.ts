/**
 * Environment overrides (named secrets, the generic ZAPTABLE__PATH form, ${NAME} in the file): precedence,
 * conversion to the key's type, errors that name the variable; secrets never printed; generated credentials.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configCommand } from '../../controller/cli/commands/config-check.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { configOf, counterSecrets, errorsOf, load, writeConfig } from './helpers.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('environment overrides', () => {
  it('takes the environment over the file over the defaults, converting text to the key\'s type', () => {
    const file = 'mqtt:\n  embedded: { port: 1884 }\nlog: { level: warn }\ndashboard: { port: 9000 }\n';
    const { config, notes } = configOf(load(file, {
      ZAPTABLE__MQTT__EMBEDDED__PORT: '1885',
      ZAPTABLE__MQTT__EMBEDDED__WEBSOCKET_PORT: '9001',
      ZAPTABLE__DASHBOARD__ENABLED: 'false',
      ZAPTABLE__HARDWARE__SIMULATED__SPEED: '2.5',
      ZAPTABLE__HARDWARE__SERIAL__PORTS: '["/dev/ttyUSB0", "/dev/ttyUSB1"]',
      ZAPTABLE__TABLES__0__SEED: '42',
      ZAPTABLE__TABLES__0__RULES__VARIANT: 'PRO',
      ZAPTABLE__MQTT__BASETOPIC: 'club/zaptable',
    }, { generateSecrets: false }));
    expect(config.mqtt.embedded).toEqual({ host: '127.0.0.1', port: 1885, websocketPort: 9001 });
    expect(config.log.level).toBe('warn');
    expect(config.dashboard).toMatchObject({ enabled: false, port: 9000 });
    expect(config.hardware.simulated.speed).toBe(2.5);
    expect(config.hardware.serial.ports).toEqual(['/dev/ttyUSB0', '/dev/ttyUSB1']);
    expect(config.mqtt.baseTopic).toBe('club/zaptable');
    expect(config.tables[0]).toMatchObject({ id: 'table-1', seed: 42, rules: { variant: 'PRO' } });
    expect(notes).toContain('mqtt.embedded.port set by ZAPTABLE__MQTT__EMBEDDED__PORT');
  });

  it('overrides a list entry the file has, and refuses to invent one', () => {
    const file = 'tables:\n  - { id: t, mode: zip-zap, seats: [{ id: a }, { id: b }] }\n';
    const ok = configOf(load(file, { ZAPTABLE__TABLES__0__SEED: '42', ZAPTABLE__TABLES__0__RULES__SCORINGMODE: 'WINS' }, { generateSecrets: false }));
    expect(ok.config.tables[0]).toMatchObject({ seed: 42, rules: { scoringMode: 'WINS' } });
    const errors = errorsOf(load(file, { ZAPTABLE__TABLES__1__SEED: '1' }));
    expect(errors).toEqual([expect.objectContaining({ code: 'CONFIG_INVALID', env: 'ZAPTABLE__TABLES__1__SEED', message: expect.stringContaining('has no entry 1') as unknown })]);
  });

  it('validates after the overrides, naming the variable in the error', () => {
    const errors = errorsOf(load('', { ZAPTABLE__MQTT__EMBEDDED__PORT: 'eighteen', ZAPTABLE__LOG__LEVLE: 'debug', ZAPTABLE__DASHBOARD__PORT: '0' }));
    expect(errors.map((e) => [e.path, e.code, e.env, e.message])).toEqual([
      ['log', 'CONFIG_UNKNOWN_KEY', 'ZAPTABLE__LOG__LEVLE', 'unknown key "LEVLE"; did you mean "level"?'],
      ['mqtt.embedded.port', 'CONFIG_INVALID', 'ZAPTABLE__MQTT__EMBEDDED__PORT', 'must be a whole number, got "eighteen"'],
      ['dashboard.port', 'CONFIG_INVALID', 'ZAPTABLE__DASHBOARD__PORT', 'must be ≥ 1, got 0'],
    ]);
  });

  it('reads the named secret variables; the generic form wins over them; empty counts as unset', () => {
    const { config } = configOf(load('', {
      ZAPTABLE_MQTT_PASSWORD: 'from-shortcut',
      ZAPTABLE_DASHBOARD_TOKEN: 'a-token-of-enough-length',
      ZAPTABLE__MQTT__CONTROLLER__PASSWORD: 'from-generic',
      ZAPTABLE__LOG__LEVEL: '',
    }));
    expect(config.mqtt.controller.password).toBe('from-generic');
    expect(config.dashboard.token).toBe('a-token-of-enough-length');
    expect(config.log.level).toBe('info');
  });

  it('replaces ${NAME} in the file, and reports an unset variable once, at its line', () => {
    const file = 'dashboard:\n  token: ${MY_TOKEN}\n  mqtt: { password: "pre-${PART}-$${literal}" }\n';
    const { config } = configOf(load(file, { MY_TOKEN: 'sixteen-chars-or-more', PART: 'x' }));
    expect(config.dashboard.token).toBe('sixteen-chars-or-more');
    expect(config.dashboard.mqtt.password).toBe('pre-x-${literal}');
    const errors = errorsOf(load(file, { PART: 'x' }));
    expect(errors).toEqual([expect.objectContaining({ path: 'dashboard.token', line: 2, message: expect.stringContaining('MY_TOKEN is not set') as unknown })]);
  });
});

describe('secrets', () => {
  it('generates the missing passwords and token for the embedded demo, and says so', () => {
    const result = configOf(load('', {}, { randomSecret: counterSecrets() }));
    expect(result.generated).toEqual([
      { path: 'mqtt.controller.password', value: 'generated-secret-1', variable: 'ZAPTABLE_MQTT_PASSWORD' },
      // A read-only login to try the broker with (issue 10, item 12).
      { path: 'mqtt.viewer.password', value: 'generated-secret-2', variable: 'ZAPTABLE__MQTT__VIEWER__PASSWORD' },
      { path: 'dashboard.mqtt.password', value: 'generated-secret-3', variable: 'ZAPTABLE__DASHBOARD__MQTT__PASSWORD' },
      { path: 'dashboard.token', value: 'generated-secret-4', variable: 'ZAPTABLE_DASHBOARD_TOKEN' },
    ]);
    expect(result.config.mqtt.controller.password).toBe('generated-secret-1');
    expect(result.config.dashboard.token).toBe('generated-secret-4');
    expect(result.notes.join('\n')).toContain('dashboard.token generated for this run');
    expect(result.notes.join('\n')).not.toContain('generated-secret');
  });

  it('generates with real randomness by default, and nothing that was configured', () => {
    const a = configOf(load('', {}));
    const b = configOf(load('', {}));
    expect(a.config.dashboard.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.config.dashboard.token).not.toBe(b.config.dashboard.token);
    const set = configOf(load('', { ZAPTABLE_MQTT_PASSWORD: 'mine', ZAPTABLE_DASHBOARD_TOKEN: 'mine-and-long-enough' }));
    expect(set.generated.map((g) => g.path)).toEqual(['mqtt.viewer.password', 'dashboard.mqtt.password']);
  });

  it('generates no broker passwords for an external broker (it has its own users), but still the token', () => {
    const result = configOf(load('mqtt: { broker: external, external: { url: "mqtts://b:8883" } }\n', {}, { randomSecret: counterSecrets() }));
    expect(result.generated.map((g) => g.path)).toEqual(['dashboard.token']);
    expect(result.config.mqtt.controller.password).toBeUndefined();
  });

  it('never prints a secret in `config check`, from the file or the environment', () => {
    const file = writeConfig(`
mqtt:
  broker: external
  external: { url: "mqtts://zaptable:url-secret-value@broker:8883" }
  clients: [{ username: viewer, password: file-secret-value }]
dashboard: { mqtt: { password: dashboard-secret-value } }
`);
    vi.stubEnv('ZAPTABLE_MQTT_PASSWORD', 'env-secret-value');
    vi.stubEnv('ZAPTABLE_DASHBOARD_TOKEN', 'token-secret-value-long');
    for (const argv of [['check', file], ['check', file, '--json']]) {
      const io = memoryOutput();
      expect(configCommand(argv, io)).toBe(0);
      const printed = [...io.lines, ...io.errors].join('\n');
      expect(printed).toContain('********');
      for (const secret of ['url-secret-value', 'file-secret-value', 'dashboard-secret-value', 'env-secret-value', 'token-secret-value-long']) {
        expect(printed).not.toContain(secret);
      }
    }
  });

  it('never echoes a secret in an error message', () => {
    vi.stubEnv('ZAPTABLE_DASHBOARD_TOKEN', 'short-secret');
    const io = memoryOutput();
    expect(configCommand(['check', writeConfig('mqtt: { clients: [{ username: v, password: tiny } ] }\n')], io)).toBe(1);
    const printed = io.errors.join('\n');
    expect(printed).toContain('dashboard.token: must be at least 16 characters long (from ZAPTABLE_DASHBOARD_TOKEN) [CONFIG_INVALID]');
    expect(printed).toContain('mqtt.clients.0.password: must be at least 8 characters long [CONFIG_INVALID]');
    expect(printed).not.toContain('short-secret');
    expect(printed).not.toContain('tiny');
  });
});
