/**
 * The event log's throughput benchmark (a measurement that prints figures, never a timed test): appends n
 * synthetic sensor events to a fresh file in a temporary folder, committing every `batch` events as the
 * runtime's group commit does once per event-loop turn, and reports events/s and commit latency.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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
  /**
   * Bytes this process handed to write() per event, WAL appends and checkpoints together, from open to close
   * (/proc/self/io `wchar`): what the SD card is asked to store. Undefined where /proc/self/io does not exist.
   */
  readonly writtenPerEvent: number | undefined;
}

/** Bytes this process has passed to write() so far (Linux), or undefined elsewhere. */
function bytesWritten(): number | undefined {
  try {
    const m = /^wchar:\s*(\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
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
  const writtenBefore = bytesWritten();
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
    const bytesPerEvent = (fileSize(file) + fileSize(`${file}-wal`)) / n;
    // close() commits and checkpoints: the WAL's pages are written a second time, into the database file.
    log.close();
    const writtenAfter = bytesWritten();
    const writtenPerEvent = writtenBefore === undefined || writtenAfter === undefined
      ? undefined
      : (writtenAfter - writtenBefore) / n;
    commits.sort((a, b) => a - b);
    const figures: EventLogBenchFigures = {
      events: n, batch, durability, seconds, eventsPerSecond: n / seconds,
      commitP50Us: percentile(commits, 50), commitP99Us: percentile(commits, 99), commitMaxUs: commits.at(-1) ?? 0,
      bytesPerEvent, writtenPerEvent,
    };
    options.print?.(`event log: ${n} sensor events in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(figures.eventsPerSecond)} events/s`
      + ` (batch ${batch}, durability ${durability}; commit p50 ${figures.commitP50Us.toFixed(0)} us, p99 ${figures.commitP99Us.toFixed(0)} us, max ${figures.commitMaxUs.toFixed(0)} us;`
      + ` ${figures.bytesPerEvent.toFixed(0)} bytes/event)`);
    options.print?.(figures.writtenPerEvent === undefined
      ? 'bytes written: unavailable (no /proc/self/io on this system)'
      : `bytes written: ${figures.writtenPerEvent.toFixed(0)} per event at this pace (write() calls of this process from open to close:`
        + ' WAL appends and checkpoints, /proc/self/io wchar)');
    return figures;
  } finally {
    log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PlayWritesFigures {
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly events: number;
  /** Bytes handed to write() over the run, open to close. */
  readonly written: number;
  readonly writtenPerEvent: number;
  readonly writtenPerHour: number;
}

/**
 * Bytes written per hour of play: `seconds` of real time with one sensor event every 1/`eventsPerSecond` s,
 * each committed on its own as the runtime's group commit does when events come one per event-loop turn, and
 * the writer's own idle checkpoints (250 ms after the last commit) running as they do at a table. Measured
 * with /proc/self/io (`wchar`) from open to close; undefined where that file does not exist.
 */
export async function benchPlayWrites(seconds: number, eventsPerSecond: number, options: Pick<EventLogBenchOptions, 'dir' | 'durability' | 'print'> = {}): Promise<PlayWritesFigures | undefined> {
  const dir = mkdtempSync(path.join(options.dir ?? tmpdir(), 'zaptable-bench-play-'));
  const file = path.join(dir, 'play.db');
  const before = bytesWritten();
  const opened = EventLog.open(file, { durability: options.durability ?? 'process' });
  if (!opened.ok) throw new Error(`${opened.code}: ${opened.message}`);
  const log = opened.log;
  const events = Math.round(seconds * eventsPerSecond);
  try {
    const gameId = log.startGame({ tableId: 'bench', game: 'zip-zap', config: { players: ['A', 'B', 'C', 'D'] }, seed: 1 });
    log.commit();
    const start = performance.now();
    for (let i = 0; i < events; i++) {
      const due = start + ((i + 1) * 1000) / eventsPerSecond;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      const deviceUs = Math.round((due - start) * 1000);
      log.appendSensor('bench', gameId, {
        station: `seat-${i % 4}`, kind: 'button-pressed', seq: i,
        time: { source: 'device', epoch: 1, deviceUs, rawUs: deviceUs, hostUs: deviceUs + 12_345, uncertaintyUs: 180, beforeUs: 80, afterUs: 0 },
      });
      await log.committed();
    }
    log.close();
    const after = bytesWritten();
    if (before === undefined || after === undefined) {
      options.print?.('bytes written per hour of play: unavailable (no /proc/self/io on this system)');
      return undefined;
    }
    const written = after - before;
    const figures: PlayWritesFigures = {
      seconds, eventsPerSecond, events, written, writtenPerEvent: written / events, writtenPerHour: (written / seconds) * 3600,
    };
    options.print?.(`bytes written per hour of play: ${(figures.writtenPerHour / 1e6).toFixed(1)} MB (${written} bytes in ${seconds} s at`
      + ` ${eventsPerSecond} events/s, each committed alone, idle checkpoints running: ${figures.writtenPerEvent.toFixed(0)} bytes per event;`
      + ` /proc/self/io wchar of this process); ${(figures.writtenPerHour * 5 * 365 / 1e9).toFixed(0)} GB a year of 5-hour evenings`);
    return figures;
  } finally {
    log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
