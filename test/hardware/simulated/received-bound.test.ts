/**
 * A simulated station left running (the demo) is pinged and lamped for ever: the list of command lines it
 * received is bounded (issue 18, item 5: the soak benchmark showed the live heap growing ~95 MB an hour at four
 * tables, this list and the serial mock's recording among it). The latest lines are kept, in order.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATION_CONFIG, RECEIVED_KEPT, SimulatedStation } from '../../../controller/hardware/simulated/simulated-station.ts';
import { VirtualTime } from '../../../controller/hardware/simulated/virtual-time.ts';

describe('SimulatedStation.received', () => {
  it('keeps the latest command lines, between RECEIVED_KEPT and twice as many, however many arrive', async () => {
    const time = new VirtualTime();
    const station = new SimulatedStation({ ...DEFAULT_STATION_CONFIG, id: 'seat-1', kind: 'seat' }, {
      clock: time, scheduler: time, output: () => undefined,
    });
    station.powerOn();
    await time.advance(5000);
    const total = 5 * RECEIVED_KEPT + 17;
    for (let i = 0; i < total; i++) {
      station.receive(Buffer.from(`${i} ping\n`));
      // One line at a time, as the driver sends them (the station's receive buffer is small).
      await time.advance(1);
    }
    const kept = station.received();
    expect(kept.length).toBeGreaterThanOrEqual(RECEIVED_KEPT);
    expect(kept.length).toBeLessThan(2 * RECEIVED_KEPT);
    expect(kept.at(-1)?.line).toBe(`${total - 1} ping`);
    const first = Number(kept[0]?.line.split(' ')[0]);
    expect(kept.map((c) => c.line)).toEqual(Array.from({ length: kept.length }, (_, i) => `${first + i} ping`));
  });
});
