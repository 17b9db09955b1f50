/**
 * The station contract (station-contract.ts) against the simulated station on serialport's mock binding,
 * always, and against a real station when ZAPTABLE_SERIAL_PORT names its port, e.g.
 *
 *   ZAPTABLE_SERIAL_PORT=/dev/ttyACM0 npx vitest run test/hardware/serial/station-contract.test.ts
 *
 * Without the variable the real-port suite is skipped, and its title says so: a skipped suite is not a
 * passing one.
 */
import { SerialStations } from '../../../controller/hardware/serial/serial-stations.ts';
import { silentLogger } from '../../../controller/hardware/serial/logger.ts';
import { SimulatedTable } from '../../../controller/hardware/simulated/simulated-table.ts';
import { VirtualTime } from '../../../controller/hardware/simulated/virtual-time.ts';
import { describeStationContract, type ContractRig } from './station-contract.ts';

for (const kind of ['seat', 'pile'] as const) {
  describeStationContract(`station contract: simulated ${kind} station on the mock binding`, {
    bannerWaitMs: 10_000,
    testTimeoutMs: 30_000,
    setUp: (() => {
      // One table per suite run, one driver per test: a second driver must find the port free again.
      let shared: { table: SimulatedTable; time: VirtualTime } | undefined;
      return async (): Promise<ContractRig> => {
        await Promise.resolve();
        if (shared === undefined) {
          const time = new VirtualTime();
          const table = new SimulatedTable({
            stations: [{ id: `sim-${kind}`, kind, bootloaderMs: 1600, skewPpm: 2500 }], clock: time, scheduler: time, seed: kind,
          });
          table.start();
          shared = { table, time };
        }
        const { table, time } = shared;
        const path = table.path(`sim-${kind}`);
        const hardware = new SerialStations({
          ports: [path], binding: table.binding, clock: time, scheduler: time, logger: silentLogger,
        });
        return {
          hardware, path,
          until: async (predicate, maxMs) => {
            if (!(await time.advanceUntil(predicate, maxMs))) throw new Error(`not within ${maxMs} ms`);
          },
          settle: (promise) => time.settle(promise),
          tearDown: () => hardware.stop(),
        };
      };
    })(),
  });
}

const realPort = process.env.ZAPTABLE_SERIAL_PORT;

describeStationContract(
  realPort === undefined
    ? 'station contract: real port — SKIPPED (set ZAPTABLE_SERIAL_PORT=/dev/ttyACM0 to run it against a station)'
    : `station contract: real station on ${realPort}`,
  {
    bannerWaitMs: 8000,
    testTimeoutMs: 30_000,
    setUp: async () => {
      await Promise.resolve();
      const path = realPort ?? '';
      const hardware = new SerialStations({ ports: [path], logger: silentLogger });
      const until = async (predicate: () => boolean, maxMs: number): Promise<void> => {
        const deadline = Date.now() + maxMs;
        while (!predicate()) {
          if (Date.now() > deadline) throw new Error(`not within ${maxMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      return { hardware, path, until, settle: (promise) => promise, tearDown: () => hardware.stop() };
    },
  },
  realPort !== undefined,
);
