/**
 * The latency half of `zaptable bench buzzer`: a press at the device → the winner shown to a connected MQTT
 * viewer. Assembled in-process by the composition root's own functions (`stationHardwareOf()`,
 * `assembleTables()`, as `zaptable start` does) for a buzzer table: SQLite event log in a temporary folder →
 * embedded broker → the real serial driver reading two simulated seat stations (the
 * simulated USB-serial link's default delays: 1 ms USB frames, the chip's 1 ms flush, 115200 baud) → the
 * buzzer runtime with the app's log and publisher adapters → an MQTT subscriber with a `viewer` login on
 * `<base>/<table>/state` (the dashboard's server is such a subscriber; its WebSocket hop to a browser is not
 * included).
 *
 * Each sample: reset, arm, wait 100–300 ms, press seat-1's button *now* (the simulated firmware stamps the
 * edge at once), and time until the first state with a winner for that question reaches the viewer. The
 * interval includes the firmware's 5 ms debounce, the link, the driver, the arbitration window the runtime
 * waits on purpose (`arbitrationWindowMs` + twice the press's uncertainty, capped), the log commit and MQTT.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectAsync } from 'mqtt';
import { stationHardwareOf } from '../app/station-hardware.ts';
import { validateConfig, type ZaptableConfig } from '../config/index.ts';
import { silentLogger } from '../hardware/serial/logger.ts';
import { summarise } from '../kernel/stats.ts';
import { EventLog } from '../persistence/index.ts';
import { simulatedTablesOverMqtt } from './simulated-tables.ts';
import { ControllerTransport, EmbeddedBroker } from '../transport/index.ts';

export interface BuzzerLatencyFigures {
  readonly samples: number;
  readonly lost: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly arbitrationWindowMs: number;
}

const secret = (): string => randomBytes(18).toString('base64url');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One buzzer table `bench`: Ana on seat-1, Ben on seat-2, on the simulated table. */
function benchConfig(arbitrationWindowMs: number): ZaptableConfig {
  const validated = validateConfig({
    tables: [{
      id: 'bench', mode: 'buzzer', timing: { arbitrationWindowMs }, buzzer: { sound: false },
      seats: [{ id: 'ana', name: 'Ana', station: 'seat-1', bot: false }, { id: 'ben', name: 'Ben', station: 'seat-2', bot: false }],
    }],
    hardware: { kind: 'simulated', simulated: { bots: false, pileStation: false, slapSensors: 'none' } },
  });
  if (!validated.ok) throw new Error(`bench buzzer: ${validated.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return validated.config;
}

export async function runBuzzerLatency(
  samples: number, arbitrationWindowMs: number, onProgress: (text: string) => void,
): Promise<BuzzerLatencyFigures> {
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-buzzer-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const opened = EventLog.open(path.join(dir, 'events.db'));
    if (!opened.ok) throw new Error(`event log: ${opened.message}`);
    const log = opened.log;
    cleanups.push(() => {
      log.close();
    });
    const controller = { username: 'zaptable', password: secret(), role: 'controller' as const };
    const viewer = { username: 'viewer', password: secret(), role: 'viewer' as const };
    const broker = new EmbeddedBroker({ baseTopic: 'zaptable', users: [controller, viewer], port: 0, host: '127.0.0.1' });
    const url = `mqtt://127.0.0.1:${await broker.start()}`;
    cleanups.push(async () => broker.close());
    const config = benchConfig(arbitrationWindowMs);
    const built = stationHardwareOf(config, { logger: silentLogger, simulated: { stationDefaults: { bootloaderMs: 0 } } });
    const simulated = built.simulated;
    if (simulated === undefined) throw new Error('bench buzzer: the hardware is not simulated');
    const sim = { hardware: built.hardware, table: simulated };
    cleanups.push(async () => {
      await sim.hardware.stop();
      sim.table.stop();
    });
    const transport = new ControllerTransport({
      url, username: controller.username, password: controller.password, baseTopic: 'zaptable', tables: ['bench'], tokens: [],
    });
    cleanups.push(async () => transport.stop());
    const tables = simulatedTablesOverMqtt(config, sim.hardware, log, transport);
    cleanups.push(() => {
      tables.stopRuntimes();
    });
    const runtime = tables.buzzers.get('bench')?.runtime;
    if (runtime === undefined) throw new Error('bench buzzer: no buzzer table');
    await transport.start();
    await tables.start();

    const subscriber = await connectAsync(url, {
      protocolVersion: 4, username: viewer.username, password: viewer.password, clientId: `bench-buzzer-${process.pid}`, reconnectPeriod: 0,
    });
    cleanups.push(async () => subscriber.endAsync(true));
    (subscriber.stream as Partial<Pick<Socket, 'setNoDelay'>>).setNoDelay?.(true);
    let waiting: { question: number; resolve: (atMs: number) => void } | undefined;
    subscriber.on('message', (_topic, payload) => {
      const state = JSON.parse(payload.toString()) as { mode?: string; buzzer?: { question: number; winners: string[] } };
      const w = waiting;
      if (w !== undefined && state.buzzer?.question === w.question && state.buzzer.winners.length > 0) {
        waiting = undefined;
        w.resolve(performance.now());
      }
    });
    await subscriber.subscribeAsync('zaptable/bench/state', { qos: 1 });
    // Clock sync needs a few pings before presses map tightly.
    await sleep(2500);

    const latencies: number[] = [];
    let lost = 0;
    const warmUp = Math.ceil(samples / 10);
    for (let i = 0; i < samples + warmUp; i++) {
      runtime.reset('bench');
      runtime.arm('bench');
      await sleep(100 + (i % 5) * 50);
      const question = runtime.current.question;
      const shown = new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          resolve(undefined);
        }, 2000);
        waiting = {
          question, resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
      });
      const pressedAt = performance.now();
      sim.table.pressButton('seat-1', { holdMs: 50 });
      const at = await shown;
      if (i >= warmUp) {
        if (at === undefined) lost++;
        else latencies.push(at - pressedAt);
      }
      if (i % 20 === 0) onProgress(`latency ${i}/${samples + warmUp}`);
      await sleep(60);
    }
    const s = summarise(latencies);
    return { samples: s.count, lost, arbitrationWindowMs, p50Ms: s.p50, p99Ms: s.p99, maxMs: s.max };
  } finally {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // keep cleaning up
      }
    }
  }
}
