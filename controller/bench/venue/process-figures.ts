/**
 * What `bench venue` reads of each process it measures (Linux `/proc`): CPU as utime + stime over the window
 * (% of one core; 100 % is a whole core, 200 % both cores of this machine) and memory as VmRSS at the end of
 * the window and VmHWM, the peak since the process started.
 */
import { readFileSync } from 'node:fs';
import { procStatus } from '../memory-bench.ts';

export interface ProcessFigures {
  readonly cpuPercent: number;
  readonly rssMb: number;
  readonly peakRssMb: number;
}

/** `sysconf(_SC_CLK_TCK)`, the unit of utime and stime: 100 on every Linux that Node runs on. */
const CLOCK_TICKS = 100;

/** utime + stime of a process in seconds, or undefined when it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: the fields after it start behind the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** A window over some processes: CPU counted from `start()`, figures read by `end()`. */
export class ProcessWindow<K extends string> {
  private before = new Map<K, number | undefined>();
  private started = 0;

  constructor(private readonly pids: ReadonlyMap<K, number>) {}

  start(): void {
    this.started = performance.now();
    this.before = new Map([...this.pids].map(([key, pid]) => [key, cpuSeconds(pid)]));
  }

  /** Each process's figures over the window; a process gone meanwhile reads NaN (never a quiet 0). */
  end(): Map<K, ProcessFigures> {
    const seconds = (performance.now() - this.started) / 1000;
    return new Map([...this.pids].map(([key, pid]) => {
      const before = this.before.get(key);
      const after = cpuSeconds(pid);
      const memory = procStatus(pid);
      return [key, {
        cpuPercent: before === undefined || after === undefined ? Number.NaN : ((after - before) / seconds) * 100,
        rssMb: memory?.rss ?? Number.NaN,
        peakRssMb: memory?.peak ?? Number.NaN,
      }];
    }));
  }
}

/** The mean of several processes' figures (the controllers'). */
export function meanFigures(each: readonly ProcessFigures[]): ProcessFigures {
  const mean = (key: keyof ProcessFigures): number => each.reduce((sum, f) => sum + f[key], 0) / each.length;
  return { cpuPercent: mean('cpuPercent'), rssMb: mean('rssMb'), peakRssMb: mean('peakRssMb') };
}
