/**
 * `zaptable bench venue` end to end with tiny numbers: one controller process with one table on the venue
 * Mosquitto, the venue dashboard process, the bridged public Mosquitto, and a few viewers of each kind (the
 * dashboard's and the public ones in their own processes). Every viewer must get every event of the window
 * (0 lost) with finite latencies; with `--fault bridge-cut` (the public link cut for 2 s mid-window) the public
 * viewers must lose deliveries and the verdict must be MISS: the check that makes a lost delivery a failure
 * can fail. Speed is not checked here: benchmarks print figures. The delivery bookkeeping is checked alone
 * first (a gap, a repeat, events outside the window).
 */
import { describe, expect, it } from 'vitest';
import { mosquittoProblem } from '../../controller/bench/mosquitto.ts';
import { runVenueBench, venueVerdict, type VenueBenchOptions } from '../../controller/bench/venue-bench.ts';
import { DeliveryLog, tally } from '../../controller/bench/venue/deliveries.ts';
import { venueReport } from '../../controller/bench/venue/report.ts';

const skip = mosquittoProblem();
if (skip !== undefined) process.stdout.write(`test/bench/venue-bench.test.ts skipped: ${skip}\n`);

const OPTIONS: VenueBenchOptions = {
  controllers: 1, tablesPerController: 1, speed: 8, venueViewers: 2, dashboardViewers: 3, dashboardFollow: 'all',
  publicViewers: 4, publicFollow: 'one', seconds: 6, warmupSeconds: 3, graceSeconds: 3,
};

describe('the delivery check of bench venue', () => {
  it('counts every event of a followed table missing in the window as lost, a repeat once, and nothing outside', () => {
    const all = new DeliveryLog(undefined);
    for (const seq of [1, 2, 3, 3, 5, 9]) all.record('t1', seq, seq);
    const one = new DeliveryLog(new Set(['t2']));
    for (const seq of [4, 5, 6]) one.record('t2', seq, 10 * seq);
    // The window: t1's seqs 2..6, t2's 4..6; `all` misses t1's 4 and 6 and every one of t2's.
    const result = tally([all, one], { t1: [1, 6], t2: [3, 6] });
    expect(result).toMatchObject({ viewers: 2, expected: 5 + 3 + 3, lost: 2 + 3, viewersWithLoss: 1 });
    // Latencies of the deliveries in the window only: 2, 3, 5 (t1) and 40, 50, 60 (t2).
    expect(result.maxMs).toBe(60);
    expect(result.p50Ms).toBe(5);
  });
});

describe.skipIf(skip !== undefined)('zaptable bench venue', () => {
  it('delivers every event to every venue, dashboard and public viewer (0 lost), with finite latencies', async () => {
    const f = await runVenueBench(OPTIONS);
    expect(f.events).toBeGreaterThan(3);
    for (const viewers of [f.venueViewers, f.dashboardViewers, f.publicViewers]) {
      expect(viewers.lost).toBe(0);
      expect(viewers.expected).toBeGreaterThan(0);
      expect(Number.isFinite(viewers.p99Ms)).toBe(true);
      expect(viewers.p50Ms).toBeGreaterThanOrEqual(0);
    }
    // Every dashboard viewer follows the one table; each public viewer its table.
    expect(f.dashboardViewers.expected).toBe(f.events * OPTIONS.dashboardViewers);
    expect(f.publicViewers.expected).toBe(f.events * OPTIONS.publicViewers);
    const processes = [
      f.venueBroker, f.publicBroker, f.dashboard, f.controllerMean, f.dashboardViewerProcess, f.publicViewerProcess,
    ];
    for (const p of processes) {
      expect(p.rssMb).toBeGreaterThan(0);
      expect(Number.isFinite(p.cpuPercent)).toBe(true);
    }
    expect(venueVerdict(f).misses.filter((m) => m.includes('lost'))).toEqual([]);
  }, 90_000);

  it('reports lost deliveries and MISS when the public link is cut mid-window (--fault bridge-cut)', async () => {
    // With a wide arbitration window too (--window-ms): it reaches the tables, whose card plays wait it out.
    const options = { ...OPTIONS, fault: 'bridge-cut' as const, arbitrationWindowMs: 250 };
    const f = await runVenueBench(options);
    expect(f.venueByType.CARD_PLAYED?.count).toBeGreaterThan(0);
    expect(f.venueByType.CARD_PLAYED?.p50Ms).toBeGreaterThanOrEqual(250);
    expect(f.publicViewers.lost).toBeGreaterThan(0);
    expect(f.publicViewers.viewersWithLoss).toBe(OPTIONS.publicViewers);
    // The venue side is untouched by the cut.
    expect(f.venueViewers.lost).toBe(0);
    expect(f.dashboardViewers.lost).toBe(0);
    const verdict = venueVerdict(f);
    expect(verdict.pass).toBe(false);
    expect(verdict.misses.join('; ')).toContain(`${f.publicViewers.lost} deliveries lost`);
    const report = venueReport(options, [f]).join('\n');
    expect(report).toMatch(/1 x 1: MISS/);
    expect(report).toContain('arbitration window: 250 ms');
    expect(report).toContain('not the goal\'s conditions');
  }, 90_000);
});
