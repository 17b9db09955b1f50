/**
 * Defaults: an empty file or no file at all is the demo (one simulated Zapp Zerapp table, four bot seats), and
 * a file with only `tables: [{id, mode, seats}]` runs on the simulated table.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, validateConfig } from '../../controller/config/index.ts';
import { DEFAULT_SENSOR_TIMING } from '../../controller/hardware/serial/event-interval.ts';
import { DEFAULT_SLAP_HOLD_MAX_MS } from '../../controller/hardware/serial/serial-stations.ts';
import { DEFAULT_SLAP_MATCH_TIMING } from '../../controller/hardware/serial/slap-matching.ts';
import { configOf, counterSecrets, errorsOf, load } from './helpers.ts';

describe('defaults', () => {
  it('gives the demo for an empty file: one simulated Zapp Zerapp table with four bot seats', () => {
    for (const text of ['', '# only a comment\n', '---\n']) {
      const { config } = configOf(load(text, {}, { generateSecrets: false }));
      expect(config.tables).toHaveLength(1);
      const [table] = config.tables;
      expect(table?.mode).toBe('zapp-zerapp');
      expect(table?.seats.map((s) => [s.id, s.station, s.colour, s.bot])).toEqual([
        ['red', 'seat-1', 'red', true], ['green', 'seat-2', 'green', true], ['blue', 'seat-3', 'blue', true], ['yellow', 'seat-4', 'yellow', true],
      ]);
      expect(config.hardware.kind).toBe('simulated');
      expect(config.mqtt).toMatchObject({ broker: 'embedded', baseTopic: 'zaptable', embedded: { host: '127.0.0.1', port: 1883, websocketPort: null } });
      expect(config.dashboard).toMatchObject({ enabled: true, port: 8080 });
      expect(config.hardware.serial).toMatchObject({ ports: 'auto', baudRate: 115200, pingIntervalMs: 100 });
      expect(config.log.level).toBe('info');
    }
  });

  it('has the serial driver\'s own sensor intervals and slap matching as the defaults of hardware.serial', () => {
    const { config } = configOf(load('', {}, { generateSecrets: false }));
    expect(config.hardware.serial.intervals).toEqual(DEFAULT_SENSOR_TIMING);
    const { memoryUs: _internal, ...matching } = DEFAULT_SLAP_MATCH_TIMING;
    expect(config.hardware.serial.slapMatching).toEqual({ ...matching, maxHoldMs: DEFAULT_SLAP_HOLD_MAX_MS });
  });

  it('uses the defaults, with a note, when the default file does not exist', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'zaptable-nofile-'));
    const result = configOf(loadConfig({ cwd, env: {}, randomSecret: counterSecrets() }));
    expect(result.file).toBeUndefined();
    expect(result.notes[0]).toMatch(/no zaptable\.yaml in .*built-in demo/);
    expect(result.config.tables[0]?.seats).toHaveLength(4);
    expect(result.config.storage.database).toBe(path.join(cwd, 'data', 'zaptable.db'));
  });

  it('reports a named file that does not exist instead of silently running the demo', () => {
    const errors = errorsOf(loadConfig({ file: '/nonexistent/zaptable.yaml', env: {} }));
    expect(errors).toEqual([expect.objectContaining({ code: 'CONFIG_UNREADABLE', message: expect.stringContaining('no such file') as unknown })]);
    const viaEnv = errorsOf(loadConfig({ env: { ZAPTABLE_CONFIG: '/nonexistent/z.yaml' } }));
    expect(viaEnv[0]?.code).toBe('CONFIG_UNREADABLE');
    const directory = errorsOf(loadConfig({ file: tmpdir(), env: {} }));
    expect(directory[0]?.code).toBe('CONFIG_UNREADABLE');
  });

  it('runs a file with only tables: [{id, mode, seats}] on the simulated table', () => {
    const { config } = configOf(load(`
tables:
  - id: cafe
    mode: zip-zap
    seats: [{ id: ada }, { id: ben }, { id: cleo }]
`, {}, { generateSecrets: false }));
    const [table] = config.tables;
    expect(table).toMatchObject({ id: 'cafe', name: 'cafe', seed: 'auto', rules: {}, timing: { arbitrationWindowMs: 30 }, pileStation: 'pile-1' });
    expect(table?.seats.map((s) => [s.name, s.station, s.bot, s.colour])).toEqual([
      ['ada', 'seat-1', true, undefined], ['ben', 'seat-2', true, undefined], ['cleo', 'seat-3', true, undefined],
    ]);
  });

  it('names simulated stations per table so that two tables never share one', () => {
    const { config } = configOf(load(`
tables:
  - { id: a, mode: zapp-zerapp, seats: [{ id: red }, { id: blue, colour: red }] }
  - { id: b, mode: zip-zap, seats: [{ id: x }, { id: y, bot: false }] }
hardware: { simulated: { pileStation: false } }
`, {}, { generateSecrets: false }));
    expect(config.tables[0]?.seats.map((s) => [s.station, s.colour])).toEqual([['seat-1', 'green'], ['seat-2', 'red']]);
    expect(config.tables[1]?.seats.map((s) => [s.station, s.bot])).toEqual([['t2-seat-1', true], ['t2-seat-2', false]]);
    expect(config.tables[1]?.pileStation).toBeUndefined();
  });

  it('is pure: validating does not change its input and gives the same result twice', () => {
    const input = { tables: [{ id: 't', mode: 'buzzer', seats: [{ id: 'a' }] }] };
    const copy = structuredClone(input);
    const first = validateConfig(input);
    expect(input).toEqual(copy);
    expect(validateConfig(input)).toEqual(first);
    expect(validateConfig(undefined).ok).toBe(true);
  });
});
