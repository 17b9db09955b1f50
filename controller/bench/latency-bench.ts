/**
 * `zaptable bench latency`: how long a sensor line takes to become a state message on MQTT, how many sensor
 * events per second the controller absorbs, and how much memory it holds. A measurement that prints figures,
 * never a timed test.
 *
 * The pipeline (pipeline.ts) is the controller's own: the real serial driver, the Zip-Zap table runtime, the
 * SQLite event log (one commit before every publish), the MQTT transport and a broker (embedded aedes or a
 * spawned Mosquitto), and a subscriber with its own viewer login.
 *
 * Why Zip-Zap card taps: every card read on a seat pad in the race is a play, and every applied `plays`
 * batch gives a new state, whether the card lands (CARD_PLAYED) or is refused (PLAY_REJECTED is recorded in
 * the state's `rejected` list) — so one sensor line = one state message, for ever, without the game running
 * out of moves. The measured seat taps one card again and again; most taps are refused plays. (Zapp Zerapp
 * placements change the state only once per seat and round.) Stuck detection is `HUMAN`, so no timer of the
 * runtime publishes a state the bench did not cause.
 *
 * The arbitration window: plays wait `timing.arbitrationWindowMs` (default 30 ms) for earlier-stamped plays
 * from other stations before they are applied (ZIP-45). That wait is a rule, not a cost of the pipeline, so
 * the bench runs with a window of 0 by default (still one timer turn) and reports it; a table adds its
 * configured window on top of the figures.
 *
 * Methods:
 * - latency: a `TAG+` line is written into the measured station's port (`emitData`, timed with
 *   `performance.now()` just before) → the subscriber's `message` callback for the state it causes. One tap
 *   at a time, the next only after the state arrived (and the card was lifted: `TAG-`, which changes nothing);
 *   a warm-up of 10 % (at least 20) is not counted. Idle: nothing else happens. Under load: a background stream
 *   of stable weight readings (`W … S`) on the three other seats at a fixed rate; they are logged and fold into
 *   the pads but change no state.
 * - throughput: lines are pushed as fast as the controller takes them (at most `maxInFlight` lines written but
 *   not yet delivered) for `seconds`: weight readings on three seats and, one line in 50, a tap or lift on the
 *   measured seat (so states are published too). Events/s = events delivered to the runtime / elapsed; then
 *   the log's sensor rows are counted.
 * - memory: `process.memoryUsage().rss` sampled every 50 ms over the whole run of one broker (the bench's own
 *   subscriber and, for the embedded broker, aedes live in the same process); event-loop utilisation per phase.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { summarise } from '../kernel/stats.ts';
import { mosquittoProblem } from './mosquitto.ts';
import { BenchPipeline, LOAD_STATIONS, MEASURED_CARD_UID, MEASURED_STATION, type BrokerKind } from './pipeline.ts';

export interface LatencyBenchOptions {
  /** Measured taps per phase (idle, under load). Default 1000. */
  readonly samples?: number;
  /** Background sensor events per second during the load phase. Default 5000. */
  readonly loadEventsPerS?: number;
  /** Default both. */
  readonly brokers?: readonly BrokerKind[];
  /** Length of the throughput phase, s. Default 5. */
  readonly throughputSeconds?: number;
  /** The table's arbitration window, ms. Default 0. */
  readonly arbitrationWindowMs?: number;
  /** Where the temporary event logs go. Default: the OS temporary folder. */
  readonly dir?: string;
  /** Progress lines. */
  readonly progress?: (text: string) => void;
}

/** Latency figures in ms. */
export interface LatencyFigures {
  /** Samples counted (timeouts excluded). */
  readonly samples: number;
  /** Taps whose state did not arrive within the timeout. */
  readonly timeouts: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
  /** Event-loop utilisation over the phase (0..1). */
  readonly elu: number;
}

export interface LoadFigures extends LatencyFigures {
  /** Background events per second asked for, and written. */
  readonly offeredEventsPerS: number;
  readonly achievedEventsPerS: number;
}

export interface ThroughputFigures {
  readonly seconds: number;
  /** Lines written into the ports. */
  readonly linesWritten: number;
  /** Sensor events delivered to the runtime (each logged before the next was taken). */
  readonly eventsDelivered: number;
  readonly eventsPerSecond: number;
  /** Sensor rows the log gained in the phase (after the last batch was committed). */
  readonly rowsLogged: number;
  readonly allLogged: boolean;
  /** State messages received in the phase. */
  readonly statesReceived: number;
  readonly elu: number;
}

export interface MemoryFigures {
  /** RSS of the process before the pipeline was built (Node, the tsx loader, the CLI's modules), MB. */
  readonly rssBaseMb: number;
  /** RSS once the pipeline is up, before the first measurement, MB. */
  readonly rssBeforeMb: number;
  /** RSS after the last phase, before stopping, MB. */
  readonly rssAfterMb: number;
  /** RSS after the idle and the load phase, MB. */
  readonly rssAfterIdleMb: number;
  readonly rssAfterLoadMb: number;
  /** The highest RSS seen (sampled every 50 ms), MB. */
  readonly rssPeakMb: number;
  readonly heapUsedAfterMb: number;
}

export interface BrokerRun {
  readonly broker: BrokerKind;
  /** Set when the broker could not be started (Mosquitto not installed); no figures then. */
  readonly skipped?: string;
  readonly idle?: LatencyFigures;
  readonly load?: LoadFigures;
  readonly throughput?: ThroughputFigures;
  readonly memory?: MemoryFigures;
  /** Warnings of the serial driver (0 expected: the lines are all well-formed and in sequence). */
  readonly driverWarnings?: number;
  /** State messages nobody caused (0 expected). */
  readonly unexpectedStates?: number;
}

export interface Goal {
  readonly goal: string;
  readonly met: boolean;
  readonly value: string;
}

export interface LatencyBenchResult {
  readonly samples: number;
  readonly loadEventsPerS: number;
  readonly arbitrationWindowMs: number;
  readonly throughputSeconds: number;
  readonly node: string;
  /** Cores, and the 1-minute load average when the run started (other work on the machine skews the tails). */
  readonly cpus: number;
  readonly loadAverage: number;
  readonly runs: readonly BrokerRun[];
  readonly goals: readonly Goal[];
}

/** The goals of the issue, on this machine. */
export const GOALS = { p99Ms: 5, eventsPerSecond: 20_000, rssMb: 100 } as const;

const STATE_TIMEOUT_MS = 2000;
const MB = 1024 * 1024;

const sleep = async (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function figuresOf(latencies: readonly number[], timeouts: number, elu: number): LatencyFigures {
  const s = summarise(latencies);
  return { samples: s.count, timeouts, elu, p50Ms: s.p50, p90Ms: s.p90, p99Ms: s.p99, maxMs: s.max, meanMs: s.mean };
}

/** Samples RSS every 50 ms (and on demand) and keeps the peak. */
class RssSampler {
  peak = process.memoryUsage().rss;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => {
      this.sample();
    }, 50);
    this.timer.unref();
  }

  sample(): number {
    const rss = process.memoryUsage().rss;
    if (rss > this.peak) this.peak = rss;
    return rss;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Background weight readings on the load stations at `rate` lines/s, written every millisecond or so. */
class LoadStream {
  written = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly startMs = performance.now();
  private next = 0;

  constructor(private readonly pipeline: BenchPipeline, private readonly rate: number) {
    this.timer = setInterval(() => {
      this.tick();
    }, 1);
  }

  get elapsedS(): number {
    return (performance.now() - this.startMs) / 1000;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    const due = Math.floor(this.elapsedS * this.rate) - this.written;
    if (due <= 0) return;
    const chunks = new Map<string, string>();
    for (let i = 0; i < due; i++) {
      const station = LOAD_STATIONS[this.next++ % LOAD_STATIONS.length] as string;
      const grams = 10 + (this.next % 7);
      chunks.set(station, (chunks.get(station) ?? '') + this.pipeline.line(station, { event: 'W', grams, stable: true }));
    }
    for (const [station, bytes] of chunks) this.pipeline.write(station, bytes);
    this.written += due;
  }
}

/** One measured tap: TAG+ into the driver → the state message; then the card is lifted. Latency in ms. */
async function tap(pipeline: BenchPipeline): Promise<number | undefined> {
  const arrived = pipeline.nextState(STATE_TIMEOUT_MS);
  const line = pipeline.line(MEASURED_STATION, { event: 'TAG+', uid: MEASURED_CARD_UID });
  const sent = performance.now();
  pipeline.write(MEASURED_STATION, line);
  const at = await arrived;
  pipeline.write(MEASURED_STATION, pipeline.line(MEASURED_STATION, { event: 'TAG-', uid: MEASURED_CARD_UID }));
  return at === undefined ? undefined : at - sent;
}

async function measureTaps(pipeline: BenchPipeline, samples: number): Promise<LatencyFigures> {
  const warmup = Math.max(20, Math.ceil(samples / 10));
  for (let i = 0; i < warmup; i++) {
    await tap(pipeline);
    await sleep(1);
  }
  const latencies: number[] = [];
  let timeouts = 0;
  const elu0 = performance.eventLoopUtilization();
  for (let i = 0; i < samples; i++) {
    const ms = await tap(pipeline);
    if (ms === undefined) timeouts++;
    else latencies.push(ms);
    // A pause of 0–2 ms, so taps do not fall into a fixed phase of the load's 1 ms writes.
    await sleep(i % 3);
  }
  return figuresOf(latencies, timeouts, performance.eventLoopUtilization(elu0).utilization);
}

async function measureUnderLoad(pipeline: BenchPipeline, samples: number, rate: number): Promise<LoadFigures> {
  const load = new LoadStream(pipeline, rate);
  try {
    await sleep(200);
    const figures = await measureTaps(pipeline, samples);
    return { ...figures, offeredEventsPerS: rate, achievedEventsPerS: load.written / load.elapsedS };
  } finally {
    load.stop();
  }
}

async function measureThroughput(pipeline: BenchPipeline, seconds: number): Promise<ThroughputFigures> {
  const maxInFlight = 4000;
  const linesPerChunk = 50;
  await sleep(50);
  const rows0 = pipeline.sensorRows();
  const delivered0 = pipeline.delivered;
  const unexpected0 = pipeline.unexpectedStates;
  let written = 0;
  let next = 0;
  let tagOn = false;
  const elu0 = performance.eventLoopUtilization();
  const start = performance.now();
  const endAt = start + seconds * 1000;
  while (performance.now() < endAt) {
    if (written - (pipeline.delivered - delivered0) < maxInFlight) {
      const chunks = new Map<string, string>();
      for (let i = 0; i < linesPerChunk; i++, next++) {
        if (next % 50 === 49) {
          const event = tagOn ? 'TAG-' : 'TAG+';
          tagOn = !tagOn;
          chunks.set(MEASURED_STATION, (chunks.get(MEASURED_STATION) ?? '') + pipeline.line(MEASURED_STATION, { event, uid: MEASURED_CARD_UID }));
        } else {
          const station = LOAD_STATIONS[next % LOAD_STATIONS.length] as string;
          chunks.set(station, (chunks.get(station) ?? '') + pipeline.line(station, { event: 'W', grams: 10 + (next % 7), stable: true }));
        }
      }
      for (const [station, bytes] of chunks) pipeline.write(station, bytes);
      written += linesPerChunk;
    }
    // Let the driver read: the mock port hands data over on the next tick, serialport reads it as a stream.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsedS = (performance.now() - start) / 1000;
  const delivered = pipeline.delivered - delivered0;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  if (tagOn) pipeline.write(MEASURED_STATION, pipeline.line(MEASURED_STATION, { event: 'TAG-', uid: MEASURED_CARD_UID }));
  // Drain: what is in flight is delivered, the last batch committed, the last states received.
  const drainUntil = performance.now() + 5000;
  while (pipeline.delivered - delivered0 < written + (tagOn ? 1 : 0) && performance.now() < drainUntil) await sleep(5);
  await sleep(100);
  const totalLines = written + (tagOn ? 1 : 0);
  const rows = pipeline.sensorRows() - rows0;
  return {
    seconds: elapsedS, linesWritten: totalLines, eventsDelivered: delivered, eventsPerSecond: delivered / elapsedS,
    rowsLogged: rows, allLogged: rows === pipeline.delivered - delivered0 && rows === totalLines,
    statesReceived: pipeline.unexpectedStates - unexpected0, elu,
  };
}

async function runBroker(broker: BrokerKind, o: Required<Omit<LatencyBenchOptions, 'dir' | 'progress' | 'brokers'>> & LatencyBenchOptions): Promise<BrokerRun> {
  const say = o.progress ?? (() => undefined);
  if (broker === 'mosquitto') {
    const problem = mosquittoProblem();
    if (problem !== undefined) return { broker, skipped: problem };
  }
  say(`${broker}: starting the pipeline`);
  const rss = new RssSampler();
  const rssBase = rss.sample();
  const pipeline = await BenchPipeline.start({
    broker, arbitrationWindowMs: o.arbitrationWindowMs, ...(o.dir === undefined ? {} : { dir: o.dir }),
  });
  try {
    await sleep(300);
    const rssBefore = rss.sample();
    say(`${broker}: ${o.samples} taps at an idle table`);
    const idle = await measureTaps(pipeline, o.samples);
    const rssAfterIdle = rss.sample();
    say(`${broker}: ${o.samples} taps under ${o.loadEventsPerS} events/s`);
    const load = await measureUnderLoad(pipeline, o.samples, o.loadEventsPerS);
    const rssAfterLoad = rss.sample();
    await sleep(200);
    say(`${broker}: throughput for ${o.throughputSeconds} s`);
    const throughput = await measureThroughput(pipeline, o.throughputSeconds);
    const rssAfter = rss.sample();
    const memory: MemoryFigures = {
      rssBaseMb: rssBase / MB, rssBeforeMb: rssBefore / MB, rssAfterIdleMb: rssAfterIdle / MB, rssAfterLoadMb: rssAfterLoad / MB,
      rssAfterMb: rssAfter / MB, rssPeakMb: rss.peak / MB, heapUsedAfterMb: process.memoryUsage().heapUsed / MB,
    };
    return {
      broker, idle, load, throughput, memory,
      driverWarnings: pipeline.driver.warnings, unexpectedStates: pipeline.unexpectedStates - throughput.statesReceived,
    };
  } finally {
    rss.stop();
    await pipeline.stop();
  }
}

function goalsOf(runs: readonly BrokerRun[], loadRate: number): Goal[] {
  const goals: Goal[] = [];
  const ms = (x: number): string => `${x.toFixed(2)} ms`;
  for (const run of runs) {
    if (run.idle === undefined || run.load === undefined || run.throughput === undefined || run.memory === undefined) continue;
    const name = run.broker === 'embedded' ? 'embedded broker' : 'Mosquitto';
    goals.push(
      { goal: `p99 <= ${GOALS.p99Ms} ms at 1 table, idle (${name})`, met: run.idle.p99Ms <= GOALS.p99Ms && run.idle.timeouts === 0, value: `p99 ${ms(run.idle.p99Ms)}` },
      {
        goal: `p99 <= ${GOALS.p99Ms} ms at 1 table, under ${loadRate} events/s (${name})`,
        met: run.load.p99Ms <= GOALS.p99Ms && run.load.timeouts === 0, value: `p99 ${ms(run.load.p99Ms)}`,
      },
      {
        goal: `>= ${GOALS.eventsPerSecond} sensor events/s, every one logged (${name})`,
        met: run.throughput.eventsPerSecond >= GOALS.eventsPerSecond && run.throughput.allLogged,
        value: `${Math.round(run.throughput.eventsPerSecond)} events/s, ${run.throughput.allLogged ? 'all' : 'NOT all'} logged`,
      },
      { goal: `resident memory <= ${GOALS.rssMb} MB (${name})`, met: run.memory.rssPeakMb <= GOALS.rssMb, value: `peak ${run.memory.rssPeakMb.toFixed(1)} MB` },
    );
  }
  return goals;
}

/** Runs the benchmark for each broker in turn; returns the figures. */
export async function runLatencyBench(options: LatencyBenchOptions = {}): Promise<LatencyBenchResult> {
  const o = {
    ...options,
    samples: options.samples ?? 1000,
    loadEventsPerS: options.loadEventsPerS ?? 5000,
    throughputSeconds: options.throughputSeconds ?? 5,
    arbitrationWindowMs: options.arbitrationWindowMs ?? 0,
  };
  const loadAverage = loadavg()[0] ?? 0;
  const runs: BrokerRun[] = [];
  for (const broker of options.brokers ?? ['embedded', 'mosquitto']) runs.push(await runBroker(broker, o));
  return {
    samples: o.samples, loadEventsPerS: o.loadEventsPerS, arbitrationWindowMs: o.arbitrationWindowMs,
    throughputSeconds: o.throughputSeconds,
    node: process.version, cpus: availableParallelism(), loadAverage, runs, goals: goalsOf(runs, o.loadEventsPerS),
  };
}
