/**
 * The hub's host-delay monitor (host-delay-monitor.ts) on the real event loop: stalls are made by blocking
 * this thread, which is exactly what delays a serial read in production.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { BuzzerHub } from '../../controller/hardware/buzzer-hub/buzzer-hub.ts';
import { HostDelayMonitor, type HostDelayWarning } from '../../controller/hardware/buzzer-hub/host-delay-monitor.ts';

const monitors: HostDelayMonitor[] = [];
const hubs: BuzzerHub[] = [];
afterEach(async () => {
  for (const m of monitors.splice(0)) m.stop();
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});

function block(ms: number): void {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) { /* the event loop is stalled */ }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function monitor(allowanceMs: number, options: { windowMs?: number; warnEveryMs?: number } = {}) {
  const m = new HostDelayMonitor({ allowanceUs: allowanceMs * 1000, ...options });
  monitors.push(m);
  const warnings: HostDelayWarning[] = [];
  m.onWarning((w) => warnings.push(w));
  m.start();
  return { m, warnings };
}

describe('the host-delay monitor', () => {
  it('counts an edge stamped in a stall longer than the allowance, and warns with its bound', async () => {
    const { m, warnings } = monitor(50, { warnEveryMs: 0 });
    await sleep(100);
    block(120); // the edge's bytes arrived during the stall: it is stamped when the loop is free again
    m.edge();
    await sleep(60);
    expect(m.snapshot()).toMatchObject({ edges: 1, edgesOver: 1, allowanceMs: 50 });
    expect(m.snapshot().maxMs).toBeGreaterThanOrEqual(110);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.edges).toBe(1);
    expect(warnings[0]?.worstMs).toBeGreaterThanOrEqual(120); // ≥ 110 ms late + one 10 ms probe period
  });

  it('does not count the same stall against an allowance it stays within', async () => {
    const { m, warnings } = monitor(10_000, { warnEveryMs: 0 });
    await sleep(100);
    block(120); // the edge's bytes arrived during the stall: it is stamped when the loop is free again
    m.edge();
    await sleep(60);
    expect(m.snapshot()).toMatchObject({ edges: 1, edgesOver: 0 });
    expect(warnings).toEqual([]);
  });

  it('warns at most once per warnEveryMs and keeps counting meanwhile', async () => {
    const { m, warnings } = monitor(50, { warnEveryMs: 60_000 });
    await sleep(50);
    for (let i = 0; i < 2; i++) {
      block(120);
      m.edge();
      await sleep(60);
    }
    expect(m.snapshot()).toMatchObject({ edges: 2, edgesOver: 2 });
    expect(warnings.map((w) => w.edges)).toEqual([1]);
  });

  it('forgets a stall once it has left the rolling window', async () => {
    const { m } = monitor(50, { windowMs: 400 });
    await sleep(50);
    block(300);
    await sleep(30);
    expect(m.snapshot().maxMs).toBeGreaterThanOrEqual(290);
    await sleep(600);
    const later = m.snapshot();
    expect(later.windowS).toBe(0.4);
    expect(later.samples).toBeGreaterThan(0);
    expect(later.maxMs).toBeLessThan(290);
  });
});

interface MockIo extends EventEmitter {
  digitalRead(pin: number, callback: (value: number) => void): void;
}
const require = createRequire(import.meta.url);
const { Firmata: MockFirmata } = require('mock-firmata') as { Firmata: new (options?: object) => MockIo };

describe('the hub\'s monitor', () => {
  it('judges the hub\'s edges: a press read in a stall warns through the hub', async () => {
    const io = new MockFirmata();
    const reads = new Map<number, (value: number) => void>();
    io.digitalRead = (pin, callback) => {
      reads.set(pin, callback);
    };
    const hub = new BuzzerHub({ io: () => io, buttons: [{ id: 'buzzer-1', pin: 2 }], debounceMs: 1, hostDelayMonitor: { warnEveryMs: 0 } });
    hubs.push(hub);
    const warnings: HostDelayWarning[] = [];
    hub.onHostDelayWarning((w) => warnings.push(w));
    const start = hub.start();
    io.emit('connect');
    io.emit('ready');
    await start;
    reads.get(2)?.(1); // the first report: a state, not an edge
    await sleep(50);
    block(120); // the press's report waited in the kernel meanwhile
    reads.get(2)?.(0); // pressed: an edge, stamped now
    await sleep(60);
    expect(hub.hostDelay()).toMatchObject({ edges: 1, edgesOver: 1, allowanceMs: 50 });
    expect(warnings).toEqual([expect.objectContaining({ edges: 1, allowanceMs: 50 })]);
    const off = new BuzzerHub({ io: () => io, buttons: [{ id: 'b', pin: 2 }], hostDelayMonitor: false });
    expect(off.hostDelay()).toBeUndefined();
  });
});
