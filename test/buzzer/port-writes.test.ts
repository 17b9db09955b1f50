/**
 * The hub's port writes carry each button's configured pull-up, not its last reading (port-writes.ts): the
 * wire values on an IO shaped like firmata-io (its `ports` copy and `writeDigitalPort`). The real
 * StandardFirmata 2.4 case is in test/firmata/hub-on-standard-firmata.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { HubIo } from '../../controller/hardware/buzzer-hub/hub-io.ts';
import { inputPortBits, keepPullupsInPortWrites } from '../../controller/hardware/buzzer-hub/port-writes.ts';

/** firmata-io's port bookkeeping: reports copy input bits into `ports`, a write sends `ports[port]`. */
function firmataLike(): HubIo & { ports: number[]; wire: [number, number][]; report(port: number, value: number): void } {
  const io = {
    MODES: { INPUT: 0, OUTPUT: 1 }, HIGH: 1, LOW: 0,
    ports: Array<number>(16).fill(0),
    wire: [] as [number, number][],
    pinMode: () => undefined,
    digitalRead: () => undefined,
    digitalWrite(pin: number, value: number): void {
      const port = pin >> 3;
      if (value) io.ports[port] = (io.ports[port] ?? 0) | (1 << (pin & 7));
      else io.ports[port] = (io.ports[port] ?? 0) & ~(1 << (pin & 7));
      io.writeDigitalPort(port);
    },
    writeDigitalPort(port: number): void {
      io.wire.push([port, io.ports[port] ?? 0]);
    },
    report(port: number, value: number): void {
      io.ports[port] = value; // firmata-io copies the reported input bits (here: the whole port, for brevity)
    },
  };
  return io;
}

describe('port writes keep the buttons\' pull-ups', () => {
  it('groups pins by Firmata port (pin >> 3): A0/A1 share port 1 with D8–D13', () => {
    expect(inputPortBits([{ pin: 14, pullup: true }, { pin: 2, pullup: true }, { pin: 16, pullup: false }])).toEqual(new Map([
      [1, { mask: 0b0100_0000, high: 0b0100_0000 }], [0, { mask: 0b100, high: 0b100 }], [2, { mask: 1, high: 0 }],
    ]));
  });

  it('a held button (reported 0) is written 1 in a piezo write on its port; firmata-io\'s copy is kept', () => {
    const io = firmataLike();
    expect(keepPullupsInPortWrites(io, [{ pin: 14, pullup: true }])).toBe(true);
    io.report(1, 0); // A0 held: reads LOW
    io.digitalWrite(15, 1); // the piezo on A1
    io.digitalWrite(15, 0);
    expect(io.wire).toEqual([[1, 0b1100_0000], [1, 0b0100_0000]]);
    expect(io.ports[1]).toBe(0);
    // Other ports are written as they are.
    io.digitalWrite(16, 1);
    expect(io.wire.at(-1)).toEqual([2, 1]);
  });

  it('a button without the internal pull-up is written 0, even when it reads 1 (Firmata 2.5 would set INPUT_PULLUP)', () => {
    const io = firmataLike();
    keepPullupsInPortWrites(io, [{ pin: 2, pullup: false }]);
    io.report(0, 0b100); // external pull-up: released reads HIGH
    io.digitalWrite(3, 1); // a lamp on D3
    expect(io.wire).toEqual([[0, 0b1000]]);
  });

  it('leaves an IO without Firmata port writes (a GPIO plugin) alone', () => {
    const io: HubIo = {
      MODES: { INPUT: 0, OUTPUT: 1 }, HIGH: 1, LOW: 0,
      pinMode: () => undefined, digitalWrite: () => undefined, digitalRead: () => undefined,
    };
    expect(keepPullupsInPortWrites(io, [{ pin: 2, pullup: true }])).toBe(false);
    expect(Object.keys(io)).not.toContain('writeDigitalPort');
  });
});
