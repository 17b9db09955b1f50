/**
 * Values that are fine alone but clash: duplicate ids and stations, seats per mode, Zapp Zerapp colours, keys
 * written for the wrong mode, broker settings that belong together, ports and pins used twice.
 */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../controller/config/index.ts';

const seats = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, ...extra(i) }));

function problems(input: unknown): string[] {
  const result = validateConfig(input);
  return result.ok ? [] : result.errors.map((e) => `${e.code} ${e.path}: ${e.message}`);
}

describe('cross-field checks', () => {
  it('refuses duplicate table ids, seat ids and stations (within and across tables)', () => {
    expect(problems({
      tables: [
        { id: 'a', mode: 'zip-zap', seats: [{ id: 'x', station: 's1' }, { id: 'x', station: 's2' }, { id: 'z', station: 's2' }] },
        { id: 'a', mode: 'buzzer', seats: [{ id: 'q', station: 's1' }] },
      ],
      hardware: { simulated: { pileStation: false } },
    })).toEqual([
      'CONFIG_CONFLICT tables.0.seats.1.id: seat id "x" is already used by seat 0',
      'CONFIG_CONFLICT tables.0.seats.2.station: station "s2" is already used by table "a" (tables.0.seats.1.station)',
      'CONFIG_CONFLICT tables.1.id: table id "a" is already used by table 0',
      'CONFIG_CONFLICT tables.1.seats.0.station: station "s1" is already used by table "a" (tables.0.seats.0.station)',
    ]);
  });

  it('checks the seat count per mode', () => {
    expect(problems({ tables: [{ id: 'a', mode: 'zapp-zerapp', seats: seats(5) }] })).toEqual(['CONFIG_INVALID tables.0.seats: zapp-zerapp needs 2–4 seats, got 5']);
    expect(problems({ tables: [{ id: 'a', mode: 'zip-zap', seats: seats(7) }] })).toEqual(['CONFIG_INVALID tables.0.seats: zip-zap needs 2–6 seats, got 7']);
    expect(problems({ tables: [{ id: 'a', mode: 'zip-zap', seats: seats(1) }] })).toEqual(['CONFIG_INVALID tables.0.seats: zip-zap needs 2–6 seats, got 1']);
    expect(problems({ tables: [{ id: 'a', mode: 'buzzer', seats: seats(32) }] })).toEqual([]);
    expect(problems({ tables: [{ id: 'a', mode: 'buzzer', seats: seats(33) }] })).toEqual(['CONFIG_INVALID tables.0.seats: must list at most 32 items']);
  });

  it('allows only the four Zapp Zerapp colours, each once', () => {
    expect(problems({ tables: [{ id: 'a', mode: 'zapp-zerapp', seats: seats(3, (i) => ({ colour: ['red', 'purple', 'red'][i] })) }] })).toEqual([
      'CONFIG_INVALID tables.0.seats.1.colour: Zapp Zerapp colours are red, green, blue, yellow; got "purple"',
      'CONFIG_CONFLICT tables.0.seats.2.colour: colour "red" is already used by seat 0',
    ]);
    expect(problems({ tables: [{ id: 'a', mode: 'zip-zap', seats: seats(2, () => ({ colour: '#ff8800' })) }] })).toEqual([]);
  });

  it('refuses keys written for another mode, and players or colours in rules', () => {
    expect(problems({
      tables: [
        { id: 'a', mode: 'zapp-zerapp', seats: seats(2), pileStation: 'pile-1', buzzer: { penaltyMs: 100 }, rules: { players: ['x'], colours: {} } },
        { id: 'b', mode: 'buzzer', seats: seats(2), rules: { variant: 'PRO' } },
      ],
    })).toEqual([
      'CONFIG_CONFLICT tables.0.buzzer: only for mode buzzer (this table is zapp-zerapp)',
      'CONFIG_CONFLICT tables.0.pileStation: only for mode zip-zap or killer-21 (this table is zapp-zerapp)',
      'CONFIG_CONFLICT tables.0.rules.colours: comes from `seats` (each seat\'s colour); remove it here',
      'CONFIG_CONFLICT tables.0.rules.players: comes from `seats`; remove it here',
      'CONFIG_CONFLICT tables.1.rules: buzzer mode has no rules engine: its options are in `buzzer`',
    ]);
  });

  it('checks buzzer teams against the table\'s seats', () => {
    expect(problems({
      tables: [{
        id: 'quiz', mode: 'buzzer', seats: seats(4),
        buzzer: { teams: [{ id: 'red', seats: ['p1', 'p2'] }, { id: 'red', seats: ['p2', 'p5'] }] },
      }],
    })).toEqual([
      'CONFIG_CONFLICT tables.0.buzzer.teams.1.id: team id "red" is already used by team 0',
      'CONFIG_CONFLICT tables.0.buzzer.teams.1.seats.0: seat "p2" is already used by team "red"',
      'CONFIG_INVALID tables.0.buzzer.teams.1.seats.1: no seat "p5" at this table; did you mean "p1"?',
    ]);
  });

  it('needs a station for every seat on serial hardware, and no bots there', () => {
    expect(problems({
      tables: [{ id: 'a', mode: 'zip-zap', seats: [{ id: 'x', station: 'seat-1' }, { id: 'y', bot: true }, { id: 'z', station: 'unset' }] }],
      hardware: { kind: 'serial' },
    })).toEqual([
      'CONFIG_CONFLICT tables.0.seats.1.bot: bots play only on simulated hardware (hardware.kind: simulated)',
      'CONFIG_INVALID tables.0.seats.1.station: is required on serial hardware: the id in the station\'s banner (set with `id set`)',
      'CONFIG_INVALID tables.0.seats.2.station: "unset" is what a station without an id announces: give it one with `id set`',
    ]);
  });

  it('needs external.url for an external broker; refuses a user name or port used twice', () => {
    expect(problems({
      mqtt: { broker: 'external', clients: [{ username: 'zaptable-controller', password: 'long enough' }] },
      dashboard: { mqtt: { username: 'zaptable-controller' } },
    })).toEqual([
      'CONFIG_CONFLICT mqtt.clients.0.username: user name "zaptable-controller" is already used by mqtt.controller.username',
      'CONFIG_INVALID mqtt.external.url: is required when mqtt.broker is external',
      'CONFIG_CONFLICT dashboard.mqtt.username: user name "zaptable-controller" is already used by mqtt.controller.username',
    ]);
    expect(problems({ mqtt: { embedded: { websocketPort: 8080 } } })).toEqual([
      'CONFIG_CONFLICT dashboard.port: port 8080 is already used by mqtt.embedded.websocketPort',
    ]);
    expect(problems({ mqtt: { embedded: { websocketPort: 8080 } }, dashboard: { enabled: false } })).toEqual([]);
  });

  it('gives every buzzer-hub pin one job', () => {
    expect(problems({
      hardware: {
        kind: 'serial', serial: { ports: ['/dev/ttyACM0'] },
        buzzerHub: { port: '/dev/ttyACM0', buttons: [{ id: 'b1', pin: 2, lamp: 8 }, { id: 'b1', pin: 8 }], piezo: 2 },
      },
    })).toEqual([
      'CONFIG_CONFLICT hardware.buzzerHub.buttons.1.id: button id "b1" is already used by button 0',
      'CONFIG_CONFLICT hardware.buzzerHub.buttons.1.pin: pin 8 is already used by hardware.buzzerHub.buttons.0.lamp',
      'CONFIG_CONFLICT hardware.buzzerHub.piezo: pin 2 is already used by hardware.buzzerHub.buttons.0.pin',
      'CONFIG_CONFLICT hardware.buzzerHub.port: /dev/ttyACM0 is also in hardware.serial.ports: one port, one board',
    ]);
  });

  it('refuses the hub\'s serial pins D0/D1', () => {
    expect(problems({ hardware: { buzzerHub: { port: '/dev/ttyACM0', buttons: [{ id: 'b1', pin: 1 }], piezo: 0 } } })).toEqual([
      'CONFIG_INVALID hardware.buzzerHub.buttons.0.pin: pin 1 is D1, the board\'s serial TX (StandardFirmata\'s link): use 2–13 or A0–A5 = 14–19 on an Uno',
      'CONFIG_INVALID hardware.buzzerHub.piezo: pin 0 is D0, the board\'s serial RX (StandardFirmata\'s link): use 2–13 or A0–A5 = 14–19 on an Uno',
    ]);
  });

  it('still reports cross-field clashes next to schema mistakes, without repeating one mistake', () => {
    expect(problems({
      tables: [{ id: 'a', mode: 'zip-zap', seats: [{ id: 'x', station: 's1' }, { id: 'y', station: 's1' }], seed: false }],
    })).toEqual([
      'CONFIG_CONFLICT tables.0.seats.1.station: station "s1" is already used by table "a" (tables.0.seats.0.station)',
      'CONFIG_INVALID tables.0.seed: must be a whole number, a non-empty string or auto, got false',
    ]);
    expect(problems({ tables: [{ id: 'a', mode: 'zip-zap', seats: [{ id: 'x', station: 's1' }, { id: 'y', station: 's 1' }] }] })).toHaveLength(1);
  });
});
