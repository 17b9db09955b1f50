/**
 * The event log's throughput benchmark (a measurement that prints figures, never a timed test): appends n
 * synthetic sensor events to a fresh file in a temporary folder, committing every `batch` events as the
 * runtime's group commit does once per event-loop turn, and reports events/s and commit latency.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile } from '../kernel/stats.ts';
import type { Durability } from './database.ts';
import { EventLog } from './event-log.ts';
import type { LoggableSensorEvent } from './rows.ts';

export interface EventLogBenchOptions {
  /** Events per commit (one event-loop turn's worth). Default 100. */
  readonly batch?: number;
  /** Default `process`. */
  readonly durability?: Durability;
  /** Where the temporary log goes. Default: the OS temporary folder. */
  readonly dir?: string;
  /** Where the report line goes. Default: nowhere (the figures are returned). */
  readonly print?: (line: string) => void;
}

export interface EventLogBenchFigures {
  readonly events: number;
  readonly batch: number;
  readonly durability: Durability;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  /** Commit time per batch, µs. */
  readonly commitP50Us: number;
  readonly commitP99Us: number;
  readonly commitMaxUs: number;
  /** File size (database + WAL) per event, bytes. */
  readonly bytesPerEvent: number;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Appends `n` sensor events in batches; returns (and optionally prints) the figures. */
export function benchEventLog(n: number, options: EventLogBenchOptions = {}): EventLogBenchFigures {
  const batch = options.batch ?? 100;
  const durability = options.durability ?? 'process';
  const dir = mkdtempSync(path.join(options.dir ?? tmpdir(), 'zaptable-bench-'));
  const file = path.join(dir, 'bench.db');
  const opened = EventLog.open(file, { durability, autoCommit: false, maxBatchRows: Number.MAX_SAFE_INTEGER });
  if (!opened.ok) throw new Error(`${opened.code}: ${opened.message}`);
  const log = opened.log;
  const commits: number[] = [];
  try {
    const gameId = log.startGame({ tableId: 'bench', game: 'zip-zap', config: { players: ['A', 'B', 'C', 'D'] }, seed: 1 });
    log.commit();
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      const station = `seat-${i % 4}`;
      const deviceUs = 1_000_000 + i * 250;
      const event: LoggableSensorEvent & { button: string } = {
        station, kind: 'button-pressed', button: 'zap', seq: i,
        time: {
          source: 'device', epoch: 1, deviceUs, rawUs: deviceUs % 2 ** 32, hostUs: deviceUs + 12_345, uncertaintyUs: 180,
          beforeUs: 80, afterUs: 0,
        },
      };
      log.appendSensor('bench', gameId, event);
      if ((i + 1) % batch === 0 || i === n - 1) {
        const t = performance.now();
        log.commit();
        commits.push((performance.now() - t) * 1000);
      }
    }
    const seconds = (performance.now() - start) / 1000;
    commits.sort((a, b) => a - b);
    const figures: EventLogBenchFigures = {
      events: n, batch, durability, seconds, eventsPerSecond: n / seconds,
      commitP50Us: percentile(commits, 50), commitP99Us: percentile(commits, 99), commitMaxUs: commits.at(-1) ?? 0,
      bytesPerEvent: (fileSize(file) + fileSize(`${file}-wal`)) / n,
    };
    options.print?.(`event log: ${n} sensor events in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(figures.eventsPerSecond)} events/s`
      + ` (batch ${batch}, durability ${durability}; commit p50 ${figures.commitP50Us.toFixed(0)} us, p99 ${figures.commitP99Us.toFixed(0)} us, max ${figures.commitMaxUs.toFixed(0)} us;`
      + ` ${figures.bytesPerEvent.toFixed(0)} bytes/event)`);
    return figures;
  } finally {
    log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
