/**
 * Measures the buzzer hub's delay from a button edge to the host stamp, on the production path: the real
 * StandardFirmata (avrgirl's Uno build) in avr8js in its own process, on the master side of a pty
 * (pty-board.ts); the hub opens the slave by its path as in production (johnny-five → firmata →
 * serialport 8's native binding → the kernel's tty layer). Prints figures; a measurement, not a test.
 *
 *   npx tsx test/firmata/measure-host-delay.ts [--presses 100] [--load 0,2] [--speed 0.25] [--traffic]
 *
 * `--load 0,2`: one run idle, one with two CPU-bound processes (`node -e 'for(;;){}'`, killed afterwards).
 * `--traffic`: the button's lamp blinks fast meanwhile (host → board writes, as when the hub is armed).
 * `--speed`: the emulated board's pace (simulated per host second). Below real time the emulator needs
 * little CPU (at 1× on a loaded machine it runs flat out, catching up, and becomes a load of its own); the
 * firmware figures are in simulated time and the host figure in host time, so the pace changes neither.
 * Needs python3 (to create the pty) and a Linux host.
 *
 * Per edge it splits the delay into
 * - firmware: the edge → the report's first byte (StandardFirmata's input scan) and → its last stop bit
 *   (+ 3 bytes at 57600 baud), in simulated time (exact);
 * - host: the report's last byte written to the pty master → the hub's stamp (CLOCK_MONOTONIC in both
 *   processes): kernel tty, libuv, serialport, firmata-io, johnny-five, the hub — what `eventLoopUs` allows.
 * A pty has no USB-serial bridge and no USB frame: those terms of the model (bridgeFlushUs, usbFrameUs) are
 * not measured here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, getPriority, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import type { HostDelaySnapshot } from '../../controller/hardware/buzzer-hub/host-delay-monitor.ts';
import { summarise } from '../../controller/kernel/stats.ts';
import { DEFAULT_FIRMATA_LATENCY, latencyBounds, maxQueuedReports } from '../../controller/hardware/buzzer-hub/host-timestamp.ts';
import type { SensorEvent } from '../../controller/hardware/interface.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PTY_HELPER = `
import os, sys, tty
master, slave = os.openpty()
tty.setraw(slave)  # no echo, no CR/LF translation: Firmata is binary
print(os.ttyname(slave), flush=True)
os.set_inheritable(master, True)
os.set_inheritable(slave, True)
os.execvp(sys.argv[1], sys.argv[1:] + [str(master), str(slave)])
`;

interface Edge { readonly pressed: boolean; readonly simUs: number }
interface Report {
  readonly port: number;
  readonly value: number;
  readonly startSimUs: number;
  readonly endSimUs: number;
  readonly writeNs: bigint;
}

interface Sample {
  /** Edge → first byte of the report (µs, simulated): the firmware's input scan. */
  readonly scanUs: number;
  /** Edge → end of the report's last byte (µs, simulated). */
  readonly firmwareUs: number;
  /** Last byte written to the pty → hub stamp (µs, host monotonic). */
  readonly hostUs: number;
  /** Whether the edge's event exists and its interval (as the hub stated it) holds the edge, on the host time line. */
  readonly inside: boolean;
}

interface Run {
  readonly load: number;
  readonly samples: Sample[];
  /** Edges without an event (dropped by the debounce). */
  readonly missing: number;
  readonly maxLagMs: number;
  /** The hub's own host-delay monitor over the run (what `bridge/health` would show). */
  readonly monitor: HostDelaySnapshot | undefined;
  readonly loadavgBefore: number;
  /** The 1-minute load average (/proc/loadavg), sampled once a second while the presses ran: lowest, highest. */
  readonly loadavgDuring: { readonly min: number; readonly max: number };
}

/** CPU-bound processes (they inherit this process's niceness, as the board's process does). */
function busyLoops(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function run(load: number, presses: number, speed: number, traffic: boolean): Promise<Run> {
  const loadavgBefore = loadavg()[0] ?? 0;
  const loads = busyLoops(load);
  const board = spawn('python3', ['-c', PTY_HELPER, process.execPath, '--import', 'tsx', join(HERE, 'pty-board.ts'), String(speed)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const hubs: BuzzerHub[] = [];
  try {
    const lines = createInterface({ input: board.stdout });
    const edges: Edge[] = [];
    const reports: Report[] = [];
    let slavePath: string | undefined;
    const progress = { done: false };
    let maxLagMs = 0;
    const gotPath = new Promise<string>((resolve) => {
      lines.on('line', (line) => {
        if (slavePath === undefined) {
          slavePath = line.trim();
          resolve(slavePath);
          return;
        }
        const m = JSON.parse(line) as Record<string, unknown>;
        if (m.type === 'edge') edges.push({ pressed: m.pressed === true, simUs: Number(m.simUs) });
        else if (m.type === 'report') {
          reports.push({
            port: Number(m.port), value: Number(m.value), startSimUs: Number(m.startSimUs), endSimUs: Number(m.endSimUs),
            writeNs: BigInt(String(m.writeNs)),
          });
        } else if (m.type === 'lag') maxLagMs = Math.max(maxLagMs, Number(m.us) / 1000);
        else if (m.type === 'done') progress.done = true;
      });
    });
    const path = await gotPath;

    // The hub as production runs it, with one change: its clock also notes each arrival (ns).
    const arrivals: bigint[] = [];
    const clock = {
      nowUs: (): number => {
        const t = process.hrtime.bigint();
        arrivals.push(t);
        return Number(t / 1000n);
      },
      wallMs: () => Date.now(),
    };
    // The monitor's window covers the whole run (production: the last 60 s).
    const hub = new BuzzerHub({
      io: path, buttons: [{ id: 'buzzer-1', pin: 2, lamp: 9 }], readyTimeoutMs: 30_000, hostDelayMonitor: { windowMs: 3_600_000 },
    }, clock);
    hubs.push(hub);
    const events: SensorEvent[] = [];
    hub.onEvent((e) => events.push(e));
    await hub.start();
    if (!hub.health().every((h) => h.online)) throw new Error(`the hub did not come online on ${path}`);
    if (traffic) await hub.setLamp('buzzer-1', 'blink-fast');
    const reportsAtGo = reports.length;
    const arrivalsAtGo = arrivals.length;
    // Presses of 100 ms, one every 250–260 ms: a person's press, not a glitch.
    board.stdin.write(`presses ${presses} 250 100 ${load + 1}\n`);
    const deadline = performance.now() + ((presses * 0.3) / speed + 60) * 1000;
    const loadSamples: number[] = [loadavg()[0] ?? 0];
    const sampler = setInterval(() => loadSamples.push(loadavg()[0] ?? 0), 1000);
    while (!progress.done && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    clearInterval(sampler);
    const loadavgDuring = { min: Math.min(...loadSamples), max: Math.max(...loadSamples) };
    await new Promise((r) => setTimeout(r, 500)); // the last debounce
    if (!progress.done) throw new Error(`the board did not finish its presses (${edges.length} edges)`);

    // Reports and arrivals pair up in order (one button: one hub reading per port report).
    const goReports = reports.slice(reportsAtGo).filter((r) => r.port === 0);
    const goArrivals = arrivals.slice(arrivalsAtGo);
    if (goReports.length !== goArrivals.length) throw new Error(`${goReports.length} reports but ${goArrivals.length} arrivals`);
    const samples: Sample[] = [];
    let missing = 0;
    const bounds = (ahead: number): number => {
      const b = latencyBounds(DEFAULT_FIRMATA_LATENCY, ahead);
      return (b.minUs + b.maxUs) / 2;
    };
    const centre = { min: bounds(0), max: bounds(maxQueuedReports(DEFAULT_FIRMATA_LATENCY)) };
    for (const edge of edges.slice(-2 * presses)) {
      // The first report after the edge showing the new level of D2 (bit 2; pressed reads LOW).
      const k = goReports.findIndex((r) => r.startSimUs >= edge.simUs - 200 && ((r.value >> 2) & 1) === (edge.pressed ? 0 : 1));
      const report = goReports[k];
      const arrival = goArrivals[k];
      if (report === undefined || arrival === undefined) throw new Error(`no report for the edge at ${edge.simUs} µs`);
      const firmwareUs = report.endSimUs - edge.simUs;
      const hostUs = Number(arrival - report.writeNs) / 1000;
      // The edge on the host time line: the report left the board `firmwareUs` after it, at its write.
      const edgeHostUs = Number(report.writeNs) / 1000 - firmwareUs;
      // Its event: the one stamped at this report's arrival (hostUs = arrival − the centre of the latency
      // interval, which only the reports counted ahead move). The debounce runs on arrival time: a press
      // whose report is held up until its release's arrives is dropped as a glitch, and has no event.
      const kind = edge.pressed ? 'button-pressed' : 'button-released';
      const arrivalUs = Number(arrival / 1000n);
      const event = events.find((e) => e.kind === kind
        && arrivalUs - e.time.hostUs >= centre.min - 1 && arrivalUs - e.time.hostUs <= centre.max + 1);
      if (event === undefined) missing++;
      samples.push({
        scanUs: report.startSimUs - edge.simUs, firmwareUs, hostUs,
        inside: event !== undefined && Math.abs(event.time.hostUs - edgeHostUs) <= event.time.uncertaintyUs,
      });
    }
    return { load, samples, missing, maxLagMs, loadavgBefore, loadavgDuring, monitor: hub.hostDelay() };
  } finally {
    await Promise.all(hubs.map((h) => h.stop()));
    board.kill();
    for (const l of loads) l.kill();
  }
}

function row(label: string, values: readonly number[]): string {
  const s = summarise(values);
  const f = (n: number): string => (n >= 10_000 ? `${(n / 1000).toFixed(1)} ms` : `${Math.round(n)} µs`).padStart(9);
  return `  ${label.padEnd(34)} p50 ${f(s.p50)}  p90 ${f(s.p90)}  p99 ${f(s.p99)}  max ${f(s.max)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { presses: { type: 'string' }, load: { type: 'string' }, speed: { type: 'string' }, traffic: { type: 'boolean' } } });
  const presses = Number(values.presses ?? 100);
  const speed = Number(values.speed ?? 0.25);
  const loads = (values.load ?? '0,2').split(',').map(Number);
  const allowance = DEFAULT_FIRMATA_LATENCY.eventLoopUs;
  console.log('hub edge → stamp: StandardFirmata 2.4 (avrgirl\'s Uno build) in avr8js on a pty, the hub on its production path');
  console.log(`(johnny-five → firmata → serialport 8 → /dev/pts), ${presses} presses (${2 * presses} edges) per run, board at ${speed}× real time, `
    + `${values.traffic === true ? 'lamp blinking' : 'no other traffic'}; ${cpus().length} CPUs, niceness ${getPriority()}`);
  for (const load of loads) {
    const r = await run(load, presses, speed, values.traffic === true);
    const host = r.samples.map((s) => s.hostUs);
    console.log(`\n${load === 0 ? 'no added load' : `${load} CPU-bound processes`} (load average before: ${r.loadavgBefore.toFixed(1)}, `
      + `during the presses: ${r.loadavgDuring.min.toFixed(1)}–${r.loadavgDuring.max.toFixed(1)}); `
      + `emulator lag up to ${r.maxLagMs.toFixed(0)} ms; ${r.samples.length} edges`);
    console.log(row('firmware scan (edge → 1st byte)', r.samples.map((s) => s.scanUs)));
    console.log(row('firmware + wire (edge → last byte)', r.samples.map((s) => s.firmwareUs)));
    console.log(row('host (pty write → stamp)', host));
    const within = (ms: number): string => `${host.filter((h) => h <= ms * 1000).length}`;
    console.log(`  host delay ≤ 1 / 2 / 5 / 10 / 20 / 50 ms: ${[1, 2, 5, 10, 20, 50].map(within).join(' / ')} of ${host.length}`);
    console.log(`  host delay within the model's ${allowance / 1000} ms: ${host.filter((h) => h <= allowance).length}/${host.length}; `
      + `stamps whose interval holds the edge: ${r.samples.filter((s) => s.inside).length}/${r.samples.length}`
      + (r.missing > 0 ? ` (${r.missing} edges had no event: dropped by the debounce)` : ''));
    const m = r.monitor;
    if (m !== undefined) {
      console.log(`  the hub's own monitor (bridge/health): event-loop lateness p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, max ${m.maxMs} ms `
        + `(${m.samples} probes); edges judged over the ${m.allowanceMs} ms allowance: ${m.edgesOver}/${m.edges}`);
    }
  }
}

await main();
