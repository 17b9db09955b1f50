/**
 * `zaptable bench soak` (issue 18, item 5): the demo left running — the whole controller as `zaptable start`
 * wires it, simulated hardware at real speed with bots in every seat, at several tables (one of each game, then
 * more Zip-Zap), the dashboard on — sampled every `intervalS` for `seconds`: this process's RSS and V8 heap
 * (after a full GC when node runs with `--expose-gc`, so the heap figure is what is alive, not what is not yet
 * collected). The slope (least squares over the samples after the first minute, MB per hour) says whether
 * something grows. A measurement, not a test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerApp } from '../app/controller-app.ts';
import { dashboardFor } from '../cli/commands/start.ts';
import { loadConfig } from '../config/index.ts';
import { freeLoopbackPort } from './mosquitto.ts';

export interface SoakOptions {
  /** How long to run, s. */
  readonly seconds: number;
  /** Sample interval, s (default 10). */
  readonly intervalS?: number;
  /** Tables (default 4). */
  readonly tables?: number;
  /** Start the dashboard too (default true: the demo has it). */
  readonly dashboard?: boolean;
  readonly progress?: (text: string) => void;
}

export interface SoakSample {
  /** Seconds since the controller started. */
  readonly t: number;
  readonly rssMb: number;
  readonly heapMb: number;
}

export interface SoakResult {
  readonly samples: readonly SoakSample[];
  /** Least-squares slope over the samples after the first minute (all of them for a shorter run), MB per hour. */
  readonly rssSlopeMbPerHour: number;
  readonly heapSlopeMbPerHour: number;
  /** Whether the heap was measured after a full GC (node --expose-gc). */
  readonly gcBeforeSample: boolean;
  readonly tables: readonly string[];
}

const MB = 1024 * 1024;
const GAMES = ['zapp-zerapp', 'zip-zap', 'killer-21'] as const;

/** Least-squares slope of y over x (per unit of x); 0 for fewer than two points. */
export function slope(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The tables of a soak: one of each game, then more Zip-Zap. */
export function soakTables(count: number): { readonly id: string; readonly mode: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: `table-${i + 1}`, mode: GAMES[i] ?? 'zip-zap' }));
}

/**
 * Writes `zaptable.yaml` in `dir` for the demo at `count` tables (bots in every seat, simulated hardware, fresh
 * loopback ports, files in `dir`); `zaptable bench memory` runs the same file in a process of its own.
 */
export async function writeSoakConfig(dir: string, count: number, dashboard: boolean): Promise<string> {
  const file = path.join(dir, 'zaptable.yaml');
  const seats = ['ana', 'ben', 'cy', 'dee'];
  writeFileSync(file, [
    'tables:',
    ...soakTables(count).map((t) => `  - { id: ${t.id}, mode: ${t.mode}, seats: [${seats.map((s) => `{ id: ${s}, bot: true }`).join(', ')}] }`),
    'hardware: { kind: simulated }',
    `mqtt: { embedded: { port: ${await freeLoopbackPort()} } }`,
    `dashboard: { enabled: ${dashboard ? 'true' : 'false'}, host: 127.0.0.1, port: ${await freeLoopbackPort()}, `
    + `token: soak-${randomBytes(12).toString('hex')} }`,
    `storage: { directory: ${JSON.stringify(dir)} }`,
    '',
  ].join('\n'));
  return file;
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const intervalS = options.intervalS ?? 10;
  const tables = soakTables(options.tables ?? 4);
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-soak-'));
  const file = await writeSoakConfig(dir, tables.length, options.dashboard !== false);
  const loaded = loadConfig({ file });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const gc = (globalThis as { gc?: () => void }).gc;
  const app = new ControllerApp({
    config: loaded.config, say: () => undefined, ...(options.dashboard === false ? {} : { dashboard: dashboardFor }),
  });
  const samples: SoakSample[] = [];
  try {
    await app.start();
    const t0 = performance.now();
    for (;;) {
      const t = (performance.now() - t0) / 1000;
      gc?.();
      const m = process.memoryUsage();
      samples.push({ t, rssMb: m.rss / MB, heapMb: m.heapUsed / MB });
      options.progress?.(`${t.toFixed(0)} s: RSS ${(m.rss / MB).toFixed(1)} MB, heap ${(m.heapUsed / MB).toFixed(1)} MB`);
      if (t >= options.seconds) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(intervalS, options.seconds - t + 0.01) * 1000));
    }
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const late = samples.filter((s) => s.t >= 60);
  const used = late.length >= 2 ? late : samples;
  return {
    samples, tables: tables.map((t) => `${t.id} (${t.mode})`), gcBeforeSample: gc !== undefined,
    rssSlopeMbPerHour: slope(used.map((s) => [s.t / 3600, s.rssMb])),
    heapSlopeMbPerHour: slope(used.map((s) => [s.t / 3600, s.heapMb])),
  };
}
