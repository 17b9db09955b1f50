/**
 * `zaptable bench memory` (issue 18 item 5, issue 19 item 7): the resident memory of the controller's own
 * process, as a Raspberry Pi runs it. It builds the bundle (tools/build.mjs), starts `node dist/zaptable.mjs
 * start` in a process of its own — the built-in demo (one Zapp Zerapp table, four bot seats) or the demo at N
 * tables — and samples that process's `/proc/<pid>/status` (VmRSS, RssAnon, RssFile) every `intervalS`. The
 * figures after the warm-up are the steady ones. No npm, no tsx, no benchmark code in the process measured:
 * only what `zaptable start` loads. Linux only (/proc). A measurement, not a test.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { projectFile } from '../config/project-root.ts';
import { summarise, type Summary } from '../kernel/stats.ts';
import { freeLoopbackPort } from './mosquitto.ts';
import { slope, soakTables, writeSoakConfig } from './soak-bench.ts';

export interface MemoryOptions {
  /** How long to sample after the controller is up, s. */
  readonly seconds: number;
  /** Sample interval, s (default 10). */
  readonly intervalS?: number;
  /** Samples before this many seconds are the start-up, not the steady state (default 60). */
  readonly warmupS?: number;
  /** 0: the built-in demo (one table); N: the soak's N tables with bots in every seat. */
  readonly tables?: number;
  /** Start the dashboard too (default true: the demo has it). */
  readonly dashboard?: boolean;
  /** Options for node itself (V8 flags), before the script. */
  readonly nodeOptions?: readonly string[];
  /** The goal for the median RSS, MB, carried into the result for the report. */
  readonly goalMb?: number;
  readonly progress?: (text: string) => void;
}

export interface MemorySample {
  /** Seconds since the controller printed that it is running. */
  readonly t: number;
  readonly rssMb: number;
  /** Anonymous memory (heap, stacks, native allocations) and file-backed pages (node's own binary mostly). */
  readonly anonMb: number;
  readonly fileMb: number;
  /** The 1-minute load average when the sample was taken. */
  readonly load: number;
}

export interface MemoryResult {
  /** What ran: the command line of the process measured. */
  readonly command: string;
  readonly pid: number;
  readonly what: string;
  readonly samples: readonly MemorySample[];
  /** RSS of the samples from the warm-up on, MB. */
  readonly steady: Summary;
  /** The process's peak RSS (VmHWM), start-up included, MB. */
  readonly peakMb: number;
  /** Least-squares slope of RSS from the warm-up on, MB per hour. */
  readonly rssSlopeMbPerHour: number;
  readonly warmupS: number;
  /** Load average (1 min) at the first and last sample. */
  readonly loadStart: number;
  readonly loadEnd: number;
  readonly goalMb?: number;
}

const KB_PER_MB = 1024;
const READY_LINE = 'zaptable is running';
const READY_TIMEOUT_MS = 120_000;

/** The fields of `/proc/<pid>/status` this bench reads, in MB; undefined once the process is gone. */
export function procStatus(pid: number): { rss: number; anon: number; file: number; peak: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / KB_PER_MB, anon: kb('RssAnon') / KB_PER_MB, file: kb('RssFile') / KB_PER_MB, peak: kb('VmHWM') / KB_PER_MB };
}

const sleep = async (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds dist/ from the sources first, so that the figures are those of the code as it is, run as a Pi runs it:
 * `node <flags> dist/zaptable.mjs` (the benchmarks that start `zaptable` processes all do).
 */
export function buildBundle(bench: string): void {
  const built = spawnSync(process.execPath, [projectFile('tools', 'build.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bench ${bench}: tools/build.mjs failed: ${built.stderr || built.stdout}`);
}

export async function runMemory(options: MemoryOptions): Promise<MemoryResult> {
  if (process.platform !== 'linux') throw new Error('bench memory reads /proc/<pid>/status: Linux only');
  const intervalS = options.intervalS ?? 10;
  const warmupS = options.warmupS ?? 60;
  const tables = options.tables ?? 0;
  const dashboard = options.dashboard !== false;
  buildBundle('memory');
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-bench-memory-'));
  const args = [...options.nodeOptions ?? [], projectFile('dist', 'zaptable.mjs'), 'start'];
  if (tables > 0) args.push('--config', await writeSoakConfig(dir, tables, dashboard));
  else if (!dashboard) args.push('--no-dashboard');
  // The built-in demo reads its ports from the environment (fresh ones: other controllers may be running).
  const { ZAPTABLE_CONFIG: _file, NODE_OPTIONS: _node, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    ZAPTABLE__MQTT__EMBEDDED__PORT: String(await freeLoopbackPort()),
    ZAPTABLE__DASHBOARD__PORT: String(await freeLoopbackPort()), ZAPTABLE__DASHBOARD__HOST: '127.0.0.1',
  };
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  let output = '';
  let exited: string | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (output.length < 100_000) output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (output.length < 100_000) output += chunk;
  });
  const done = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = `exited (${signal ?? code})`;
      resolve();
    });
  });
  const samples: MemorySample[] = [];
  let peakMb = Number.NaN;
  // Ctrl-C ends the sampling early (the figures so far are printed) and stops the controller with it.
  const signal = { interrupted: false };
  const interrupt = (): void => {
    signal.interrupted = true;
  };
  process.on('SIGINT', interrupt);
  try {
    if (pid === undefined) throw new Error('bench memory: the controller did not start');
    const readyBy = Date.now() + READY_TIMEOUT_MS;
    while (!output.includes(READY_LINE)) {
      if (exited !== undefined || Date.now() > readyBy) {
        throw new Error(`bench memory: the controller ${exited ?? 'did not start in time'}:\n${output.slice(-2000)}`);
      }
      await sleep(100);
    }
    const t0 = performance.now();
    while (!signal.interrupted) {
      const t = (performance.now() - t0) / 1000;
      const status = procStatus(pid);
      if (status === undefined || exited !== undefined) throw new Error(`bench memory: the controller ${exited ?? 'is gone'}:\n${output.slice(-2000)}`);
      samples.push({ t, rssMb: status.rss, anonMb: status.anon, fileMb: status.file, load: loadavg()[0] ?? Number.NaN });
      peakMb = status.peak;
      options.progress?.(`${t.toFixed(0)} s: RSS ${status.rss.toFixed(1)} MB (anonymous ${status.anon.toFixed(1)}, files ${status.file.toFixed(1)})`);
      if (t >= options.seconds) break;
      await sleep(Math.min(intervalS, options.seconds - t + 0.01) * 1000);
    }
  } finally {
    process.off('SIGINT', interrupt);
    if (exited === undefined) {
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const late = samples.filter((s) => s.t >= warmupS);
  const used = late.length >= 2 ? late : samples;
  return {
    command: `node ${args.map((a) => (a.startsWith(dir) ? path.join('$TMP', path.relative(dir, a)) : a)).join(' ')}`,
    pid,
    what: (tables > 0
      ? `the demo at ${tables} tables (${soakTables(tables).map((t) => t.mode).join(', ')}), bots in every seat`
      : 'the built-in demo (one Zapp Zerapp table, four bot seats)')
      + (dashboard ? ', dashboard on' : ', dashboard off'),
    samples,
    steady: summarise(used.map((s) => s.rssMb)),
    peakMb,
    rssSlopeMbPerHour: slope(used.map((s) => [s.t / 3600, s.rssMb])),
    warmupS,
    loadStart: samples[0]?.load ?? Number.NaN,
    loadEnd: samples.at(-1)?.load ?? Number.NaN,
    ...options.goalMb === undefined ? {} : { goalMb: options.goalMb },
  };
}
