/**
 * Every mistake at once, each with its path, its line in the file and a stable code; unknown keys with a
 * suggestion; YAML syntax errors with their line and column.
 */
import { describe, expect, it } from 'vitest';
import { formatConfigError, validateConfig } from '../../controller/config/index.ts';
import { errorsOf, load } from './helpers.ts';

const FIVE_MISTAKES = `tables:
  - id: table-1
    mode: zip-zap
    seats:
      - { id: ada, station: seat-1 }
      - { id: ben, station: 42 }
      - { id: cleo, station: seat-3 }
    rules: { scoringMode: SOMETIMES }
hardware:
  kind: serail
mqtt:
  embedded:
    port: 70000
log:
  levle: debug
`;

describe('every error at once', () => {
  it('reports a file with five mistakes as five errors, with paths, lines and codes', () => {
    const errors = errorsOf(load(FIVE_MISTAKES));
    expect(errors.map((e) => [e.path, e.code, e.line])).toEqual([
      ['tables.0.rules.scoringMode', 'CONFIG_INVALID', 8],
      ['tables.0.seats.1.station', 'CONFIG_INVALID', 6],
      ['hardware.kind', 'CONFIG_INVALID', 10],
      ['mqtt.embedded.port', 'CONFIG_INVALID', 13],
      ['log.levle', 'CONFIG_UNKNOWN_KEY', 15],
    ]);
    expect(errors[1]?.message).toBe('must be a string, got 42');
    expect(errors[2]?.message).toBe('must be one of simulated, serial, got "serail"; did you mean "serial"?');
    expect(errors[3]?.message).toBe('must be ≤ 65535, got 70000');
    expect(errors[4]?.message).toBe('unknown key; did you mean "level"?');
    const port = errors.find((e) => e.path === 'mqtt.embedded.port');
    expect(port && formatConfigError(port, 'zaptable.yaml')).toBe('zaptable.yaml:13:5 mqtt.embedded.port: must be ≤ 65535, got 70000 [CONFIG_INVALID]');
  });

  it('suggests the known key for a typo, and lists the known keys when nothing is close', () => {
    const errors = errorsOf(load('mqtt:\n  base_topic: x\n  brokr: embedded\n  zzz: 1\ndashbord: {}\n'));
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e]));
    expect(byPath['mqtt.base_topic']?.message).toBe('unknown key; did you mean "baseTopic"?');
    expect(byPath['mqtt.brokr']?.message).toBe('unknown key; did you mean "broker"?');
    expect(byPath['mqtt.zzz']?.message).toMatch(/^unknown key \(known keys: baseTopic, broker, embedded/);
    expect(byPath.dashbord).toMatchObject({ code: 'CONFIG_UNKNOWN_KEY', line: 5, message: 'unknown key; did you mean "dashboard"?' });
  });

  it('suggests engine options for a typo inside rules (the engine owns that list)', () => {
    const errors = errorsOf(load('tables:\n  - { id: t, mode: zapp-zerapp, seats: [{ id: a }, { id: b }], rules: { varient: PRO } }\n'));
    expect(errors).toEqual([expect.objectContaining({
      path: 'tables.0.rules.varient', code: 'CONFIG_UNKNOWN_KEY', message: 'unknown zapp-zerapp rules option; did you mean "variant"?',
    })]);
    const bad = errorsOf(load('tables:\n  - { id: t, mode: zapp-zerapp, seats: [{ id: a }, { id: b }], rules: { variant: PRO, maxBarrelsInHand: 3 } }\n'));
    expect(bad).toEqual([expect.objectContaining({ path: 'tables.0.rules.maxBarrelsInHand', code: 'CONFIG_INVALID' })]);
  });

  it('reports YAML syntax errors with line and column, all of them', () => {
    const errors = errorsOf(load('tables:\n  - id: t\n    mode: [zip-zap\nlog:\n  level: info\n  level: debug\n'));
    expect(errors.length).toBeGreaterThanOrEqual(1);
    for (const e of errors) {
      expect(e.code).toBe('CONFIG_SYNTAX');
      expect(e.line).toBeGreaterThan(0);
      expect(e.column).toBeGreaterThan(0);
    }
    const duplicate = errorsOf(load('log:\n  level: info\n  level: debug\n'));
    expect(duplicate).toEqual([expect.objectContaining({ code: 'CONFIG_SYNTAX', line: 3, message: expect.stringMatching(/unique/) as unknown })]);
    const tab = errorsOf(load('log:\n\tlevel: info\n'));
    expect(tab[0]).toMatchObject({ code: 'CONFIG_SYNTAX', line: 2 });
  });

  it('explains wrong types in words and keeps one error per mistake for nullable and union keys', () => {
    const result = validateConfig({
      tables: [{ id: 't', mode: 'buzzer', seats: [{ id: 'a' }], seed: [1], buzzer: { autoResetMs: 'soon' } }],
      hardware: { serial: { ports: 'all', baudRate: 1.5 }, simulated: { bots: 'yes' } },
      dashboard: 'on',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'tables.0.buzzer.autoResetMs: must be a whole number or null, got "soon"',
      'tables.0.seed: must be a whole number, a non-empty string or auto, got [1]',
      'hardware.serial.baudRate: must be a whole number, got 1.5',
      'hardware.serial.ports: must be auto or a list of port paths, got "all"',
      'hardware.simulated.bots: must be true or false, got "yes"',
      'dashboard: must be a mapping (key: value), got "on"',
    ]);
  });

  it('reports a document that is not a mapping', () => {
    expect(errorsOf(load('- a\n- b\n'))).toEqual([expect.objectContaining({ path: '', code: 'CONFIG_INVALID', message: expect.stringContaining('mapping') as unknown })]);
  });

  it('points a missing required key at its parent\'s line', () => {
    const errors = errorsOf(load('log: {}\ntables:\n  - id: t\n    seats: [{ id: a }, { id: b }]\n'));
    expect(errors).toEqual([expect.objectContaining({ path: 'tables.0.mode', message: 'is required', line: 3 })]);
  });
});
