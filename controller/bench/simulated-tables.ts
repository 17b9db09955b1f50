/**
 * The tables of an in-process benchmark that publishes over MQTT (`bench latency`, `bench buzzer`'s latency):
 * `assembleTables()` on real time with the simulated table's tag registry and the app's MQTT publishers, as
 * `zaptable start` runs a simulated table.
 */
import { buzzerPublisherOf } from '../app/buzzer-publisher.ts';
import { runtimePublisherOf } from '../app/publisher-adapter.ts';
import { SIMULATED_WEIGHTS, simulatedRegistry } from '../app/simulated-items.ts';
import { assembleTables, type TableSet } from '../app/table-set.ts';
import type { ZaptableConfig } from '../config/index.ts';
import { systemClock, type TableHardware } from '../hardware/interface.ts';
import type { EventLog } from '../persistence/index.ts';
import { realScheduler } from '../runtime/ports.ts';
import type { ControllerTransport } from '../transport/index.ts';

/** Builds (does not start) the configured tables over `hardware`, publishing through `transport`. */
export function simulatedTablesOverMqtt(
  config: ZaptableConfig, hardware: TableHardware, log: EventLog, transport: ControllerTransport,
): TableSet {
  const io = { transport, nowMs: () => Date.now(), onError: () => undefined, epoch: Date.now() };
  return assembleTables({
    tables: config.tables, hardware, log, clock: systemClock, scheduler: realScheduler,
    parts: { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS },
    publisher: runtimePublisherOf(io), buzzerPublisher: buzzerPublisherOf(io),
    publishHealth: (tableId, health) => void transport.table(tableId).publishHealth(health).catch(() => undefined),
    say: () => undefined,
  });
}
