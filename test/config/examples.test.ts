/**
 * The example files validate (with the variables they reference set), describe what they claim, and
 * `zaptable config example` prints them; `config check` answers as documented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configCommand } from '../../controller/cli/commands/config-check.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { UsageError } from '../../controller/cli/args.ts';
import { loadConfig, type LoadOptions } from '../../controller/config/index.ts';
import { configOf, errorsOf, examplesDir, writeConfig } from './helpers.ts';

const ENV = { ZAPTABLE_SCOREBOARD_PASSWORD: 'scoreboard-password', ZAPTABLE_DASHBOARD_MQTT_PASSWORD: 'dashboard-password' };
const example = (name: string, options: Partial<LoadOptions> = {}) => configOf(loadConfig({
  file: path.join(examplesDir, name), env: ENV, generateSecrets: false, ...options,
}));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('example configurations', () => {
  it('simulated.yaml: simulated tables with bots on the embedded broker', () => {
    const { config } = example('simulated.yaml');
    expect(config.hardware.kind).toBe('simulated');
    expect(config.mqtt.broker).toBe('embedded');
    expect(config.tables.map((t) => t.mode)).toEqual(['zapp-zerapp', 'zip-zap']);
    expect(config.tables[1]?.seats.map((s) => s.bot)).toEqual([true, true, false]);
    expect(config.tables[1]?.pileStation).toBe('t2-pile-1');
  });

  it('table-4-seats.yaml: four serial seat stations and a pile station on the embedded broker', () => {
    const { config } = example('table-4-seats.yaml');
    expect(config.hardware.kind).toBe('serial');
    expect(config.mqtt.broker).toBe('embedded');
    const [table] = config.tables;
    expect(table?.seats.map((s) => s.station)).toEqual(['seat-1', 'seat-2', 'seat-3', 'seat-4']);
    expect(table?.pileStation).toBe('pile-1');
    expect(config.mqtt.clients[0]?.password).toBe('scoreboard-password');
    expect(config.storage.database).toBe('/var/lib/zaptable/zaptable.db');
  });

  it('table-4-seats.yaml also works as a Zapp Zerapp table, as its comments say', () => {
    const text = readFileSync(path.join(examplesDir, 'table-4-seats.yaml'), 'utf8')
      .replace('mode: zip-zap', 'mode: zapp-zerapp')
      .replace(/ {4}pileStation: pile-1.*\n/, '')
      .replace(/ {4}rules:\n( {6}.*\n)+/, '    rules: { variant: PRO }\n');
    const { config } = configOf(loadConfig({ file: writeConfig(text), env: ENV, generateSecrets: false }));
    expect(config.tables[0]?.seats.map((s) => s.colour)).toEqual(['red', 'green', 'blue', 'yellow']);
  });

  it('external-mosquitto.yaml: an external broker over TLS (its CA file is the reader\'s own: certs/ beside the file)', () => {
    // The CA file it names belongs to the broker the reader runs, so it is not shipped: read, it is missing.
    const { config } = example('external-mosquitto.yaml', { tlsFiles: false });
    expect(config.mqtt.broker).toBe('external');
    expect(config.mqtt.external.url).toBe('mqtts://broker.example.org:8883');
    expect(config.mqtt.external.tls.ca).toBe(path.join(examplesDir, 'certs', 'ca.pem'));
    expect(config.dashboard.mqtt.password).toBe('dashboard-password');
    const [missing, ...more] = errorsOf(loadConfig({ file: path.join(examplesDir, 'external-mosquitto.yaml'), env: ENV, generateSecrets: false }));
    expect(more).toEqual([]);
    expect(missing).toMatchObject({ code: 'TLS_FILE_UNREADABLE', path: 'mqtt.external.tls.ca', line: expect.any(Number) as number });
    expect(missing?.message).toContain(`${path.join(examplesDir, 'certs', 'ca.pem')}: no such file`);
  });

  it('venue-pi.yaml and venue-dashboard.yaml: a Pi at a venue and the venue dashboard with each Pi\'s token', () => {
    const pi = example('venue-pi.yaml').config;
    expect(pi.controller.id).toBe('pi-bar-1');
    expect(pi.mqtt.broker).toBe('external');
    expect(pi.dashboard.enabled).toBe(false);
    const env = {
      VENUE_REFEREE_TOKEN: 'venue-referee-token-0123', VENUE_DASHBOARD_MQTT_PASSWORD: 'dashboard-password',
      PI_BAR_1_TOKEN: 'pi-bar-1-token-0123456', PI_BAR_2_TOKEN: 'pi-bar-2-token-0123456', PI_STAGE_TOKEN: 'pi-stage-token-0123456',
    };
    const dashboard = configOf(loadConfig({ file: path.join(examplesDir, 'venue-dashboard.yaml'), env, generateSecrets: false })).config;
    expect(dashboard.dashboard.controllerTokens.map((c) => [c.controller, c.token]))
      .toEqual([['pi-bar-1', env.PI_BAR_1_TOKEN], ['pi-bar-2', env.PI_BAR_2_TOKEN], ['pi-stage', env.PI_STAGE_TOKEN]]);
  });

  it('killer-21.yaml: a simulated Killer-21 table, three bots and a seat for you, a pile station and tagged chips', () => {
    const { config } = example('killer-21.yaml');
    const [table] = config.tables;
    expect(table?.mode).toBe('killer-21');
    expect(table?.seats.map((s) => s.bot)).toEqual([true, true, true, false]);
    expect(table?.pileStation).toBe('pile-1');
    expect(table?.chips?.countBy).toBe('tags');
  });

  it('killer-21-table-deal.yaml: a real Killer-21 table dealt by hand, on serial seat stations and a pile station', () => {
    const { config } = example('killer-21-table-deal.yaml');
    expect(config.hardware.kind).toBe('serial');
    const [table] = config.tables;
    expect(table?.mode).toBe('killer-21');
    expect(table?.rules).toMatchObject({ dealing: 'TABLE', handSize: 10 });
    expect(table?.seats.map((s) => [s.station, s.bot])).toEqual([['seat-1', false], ['seat-2', false], ['seat-3', false], ['seat-4', false]]);
    expect(table?.pileStation).toBe('pile-1');
    expect(table?.chips?.countBy).toBe('tags');
    // A value the engine does not know is refused, so the example's `dealing` is really checked.
    const text = readFileSync(path.join(examplesDir, 'killer-21-table-deal.yaml'), 'utf8').replace(/^( +)dealing: TABLE/m, '$1dealing: BY_HAND');
    const bad = loadConfig({ file: writeConfig(text), env: ENV, generateSecrets: false });
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).toEqual(['tables.0.rules.dealing']);
  });

  it('are printed by `config example`', () => {
    const named = [
      ['simulated', 'simulated.yaml'], ['table-4', 'table-4-seats.yaml'], ['killer-21', 'killer-21.yaml'],
      ['killer-21-table-deal', 'killer-21-table-deal.yaml'], ['buzzer-quiz', 'buzzer-quiz.yaml'], ['external-mosquitto', 'external-mosquitto.yaml'],
      ['venue-pi', 'venue-pi.yaml'], ['venue-dashboard', 'venue-dashboard.yaml'],
    ] as const;
    // Every file in the folder can be printed by its name.
    expect(named.map(([, file]) => file).sort()).toEqual(readdirSync(examplesDir).filter((f) => f.endsWith('.yaml')).sort());
    for (const [name, file] of named) {
      const io = memoryOutput();
      expect(configCommand(['example', name], io)).toBe(0);
      expect(io.lines.join('\n')).toBe(readFileSync(path.join(examplesDir, file), 'utf8').trimEnd());
    }
    const io = memoryOutput();
    configCommand(['example'], io);
    expect(io.lines.join('\n')).toContain('mode: zapp-zerapp');
    expect(() => configCommand(['example', 'castle'], memoryOutput())).toThrow(UsageError);
  });
});

describe('zaptable config check', () => {
  it('prints OK, the notes and the effective configuration (exit 0)', () => {
    const io = memoryOutput();
    expect(configCommand(['check', writeConfig('log: { level: debug }\n')], io)).toBe(0);
    const out = io.lines.join('\n');
    expect(out).toMatch(/^OK: /);
    expect(out).toContain('note: dashboard.token is not set: a random one is generated at each start');
    expect(out).toContain('level: debug');
    expect(out).toContain('baseTopic: zaptable');
  });

  it('prints every error with file, line and code, and a count (exit 1)', () => {
    const io = memoryOutput();
    const file = writeConfig('tables:\n  - { id: t, mode: zip-zap, seats: [{ id: a }] }\nlog: { levle: x }\n');
    expect(configCommand(['check', file], io)).toBe(1);
    expect(io.errors).toEqual([
      expect.stringMatching(/\.yaml:2:\d+ tables\.0\.seats: zip-zap needs 2–6 seats, got 1 \[CONFIG_INVALID\]$/),
      expect.stringMatching(/\.yaml:3:\d+ log\.levle: unknown key; did you mean "level"\? \[CONFIG_UNKNOWN_KEY\]$/),
      expect.stringMatching(/^2 errors in .*\.yaml$/),
    ]);
  });

  it('answers --json for tools', () => {
    const io = memoryOutput();
    expect(configCommand(['check', writeConfig('log: { level: loud }\n'), '--json'], io)).toBe(1);
    const parsed = JSON.parse(io.lines.join('\n')) as { ok: boolean; errors: { path: string; code: string }[] };
    expect(parsed.ok).toBe(false);
    expect(parsed.errors).toEqual([expect.objectContaining({ path: 'log.level', code: 'CONFIG_INVALID', line: 1 })]);
  });

  it('checks the default file or the demo when no file is named', () => {
    vi.stubEnv('ZAPTABLE_CONFIG', path.join(examplesDir, 'simulated.yaml'));
    const io = memoryOutput();
    expect(configCommand(['check'], io)).toBe(0);
    expect(io.lines[0]).toMatch(/^OK: .*simulated\.yaml$/);
  });

  it('refuses a missing action or an unknown one with a usage error', () => {
    expect(() => configCommand([], memoryOutput())).toThrow(UsageError);
    expect(() => configCommand(['lint'], memoryOutput())).toThrow(UsageError);
    expect(() => configCommand(['check', 'a.yaml', 'b.yaml'], memoryOutput())).toThrow(UsageError);
  });
});
