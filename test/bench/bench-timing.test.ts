import { describe, expect, it } from 'vitest';
import { benchTimingCommand } from '../../controller/cli/commands/bench-timing.ts';
import { UsageError } from '../../controller/cli/args.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { PESSIMISTIC_LINK, REALISTIC_LINK } from '../../controller/bench/sim/simulated-link.ts';
import {
  BENCH_SEPARATIONS_US, PAIR_KINDS, runTimingBench, type LinkFigures, type TimingBenchFigures,
} from '../../controller/bench/timing/timing-bench.ts';

const wrongOrders = (l: LinkFigures): number => l.cells.reduce((n, c) => n + c.ours.wrong, 0);
const outside = (l: LinkFigures): number => l.cells.reduce((n, c) => n + 2 * c.pairs - c.inside, 0)
  + l.intervals.reduce((n, i) => n + (i.events - i.insideDevice) + (i.syncedEvents - i.insideHost), 0);

// Small runs: every cell gets a few pairs; the figures that matter here are exact counts (wrong, outside).
const small = (seed: string, extra: Partial<Parameters<typeof runTimingBench>[0]> = {}): TimingBenchFigures =>
  runTimingBench({ pairs: 6, seed, stations: 3, ...extra });

describe('timing benchmark', () => {
  const a = small('test');

  it('runs both link models over one world, with every cell (kind × separation) and counts that add up', () => {
    expect(a.links.map((l) => l.link)).toEqual(['realistic', 'pessimistic']);
    for (const l of a.links) {
      expect(l.cells).toHaveLength(PAIR_KINDS.length * BENCH_SEPARATIONS_US.length);
      for (const k of PAIR_KINDS) {
        expect(l.cells.filter((c) => c.kind === k.kind).map((c) => c.separationUs)).toEqual(BENCH_SEPARATIONS_US);
      }
      for (const c of l.cells) {
        expect(c.pairs + c.lost).toBe(6);
        expect(c.ours.correct + c.ours.tie + c.ours.wrong).toBe(c.pairs);
        expect(c.arrival.correct + c.arrival.wrong).toBe(c.pairs);
        expect(c.inside).toBeLessThanOrEqual(2 * c.pairs);
      }
      expect(l.mapping.events).toBeGreaterThan(0);
      expect(l.mapping.p50Us).toBeLessThanOrEqual(l.mapping.p99Us);
      expect(l.intervals.map((i) => i.source)).toEqual(['button', 'slap', 'tag', 'card by slap']);
      expect(l.goals).toHaveLength(6);
    }
    // The same world under both links: the same pairs are lost to restarts.
    expect(a.links[0]?.cells.map((c) => c.lost)).toEqual(a.links[1]?.cells.map((c) => c.lost));
    expect(small('test')).toEqual(a);
  });

  it('models the firmware: tag windows from its poll loop as measured, wider with cards resting', () => {
    const [empty, four, full] = a.tagWindows;
    expect(a.tagWindows.map((w) => w.resting)).toEqual([0, 4, 13]);
    // hardware/protocol.md *RFID timing* (firmware 0.3.0, 7-byte UIDs): median 1.02 ms on an empty pad, and a
    // presence check between polls with cards resting: median 3.02, max 3.16 ms.
    expect(empty?.p50Us).toBeGreaterThan(900);
    expect(empty?.p50Us).toBeLessThan(1200);
    expect(four?.p50Us).toBeGreaterThan(2800);
    expect(full?.maxUs).toBeLessThanOrEqual(3300);
    const tags = a.links[0]?.intervals.find((i) => i.source === 'tag');
    expect(tags?.widthP50Us).toBeGreaterThan(5000); // window + the 5 ms power-up allowance
  });

  it('never orders a pair wrongly, and every true time lies in its interval, over several seeds and both link models', () => {
    for (const seed of ['1', '2', '3', 'restarts']) {
      const f = small(seed, { meanRestartIntervalUs: seed === 'restarts' ? 20e6 : undefined });
      for (const l of f.links) {
        expect(wrongOrders(l), `${seed} ${l.link}`).toBe(0);
        expect(outside(l), `${seed} ${l.link}`).toBe(0);
        expect(l.mapping.withinBound).toBe(1);
        expect(l.goals.find((g) => g.goal.startsWith('our arbitration'))?.met).toBe(true);
      }
    }
  });

  it('detects a broken arbitration: with every tag window fed as zero, it finds wrong orders and true times outside', () => {
    const broken = small('test', { zeroTagWindow: true });
    for (const l of broken.links) {
      expect(wrongOrders(l), l.link).toBeGreaterThan(0);
      expect(outside(l), l.link).toBeGreaterThan(0);
      expect(l.goals.find((g) => g.goal.startsWith('our arbitration'))?.met).toBe(false);
      expect(l.goals.find((g) => g.goal.startsWith('every true time'))?.met).toBe(false);
      // Buttons do not depend on the tag window: still never wrong.
      expect(l.cells.filter((c) => c.kind === 'button-button').reduce((n, c) => n + c.ours.wrong, 0)).toBe(0);
    }
  });

  it('dates slap-station cards by their slap; a missed slap leaves the tag interval (ties, still never wrong)', () => {
    const slapCell = (f: TimingBenchFigures, sep: number) => f.links[0]?.cells.find((c) => c.kind === 'card-slap' && c.separationUs === sep);
    expect(slapCell(a, 5000)?.ours.correct).toBe(slapCell(a, 5000)?.pairs);
    const missed = small('test', { slapMissChance: 1, kinds: ['card-slap'] });
    expect(missed.links[0]?.intervals.map((i) => i.source)).toEqual(['tag']);
    expect(slapCell(missed, 5000)?.ours.tie).toBeGreaterThan(0);
    for (const l of missed.links) expect(wrongOrders(l)).toBe(0);
  });

  it('gives the realistic baseline its best constants and the pessimistic one raw arrival order', () => {
    const [realistic, pessimistic] = a.links;
    expect(realistic?.arrivalOffsetsUs?.edge).toBeGreaterThan(0);
    expect(realistic?.arrivalOffsetsUs?.tag).toBeGreaterThan(realistic?.arrivalOffsetsUs?.edge ?? Infinity);
    expect(pessimistic?.arrivalOffsetsUs).toBeUndefined();
    const one = runTimingBench({ pairs: 3, seed: 'x', links: [PESSIMISTIC_LINK], kinds: ['button-button'] });
    expect(one.links.map((l) => l.link)).toEqual(['pessimistic']);
    expect(one.links[0]?.cells).toHaveLength(BENCH_SEPARATIONS_US.length);
    expect(REALISTIC_LINK.host.kind).toBe('common-mode');
  });

  it('prints both link models, how ties are counted and a PASS/MISS line per goal and link', () => {
    const io = memoryOutput();
    expect(benchTimingCommand(['--pairs', '3', '--seed', '2'], io)).toBe(0);
    const text = io.lines.join('\n');
    expect(text).toMatch(/a tie is neither correct nor wrong/);
    expect(text).toMatch(/=== realistic link/);
    expect(text).toMatch(/=== pessimistic link/);
    for (const k of PAIR_KINDS) expect(io.lines.filter((l) => l === `  ${k.label}`)).toHaveLength(2);
    for (const label of ['20 us', '500 us', '1 ms', '20 ms', '50 ms']) {
      expect(io.lines.filter((l) => l.trimStart().startsWith(`${label} `))).toHaveLength(2 * PAIR_KINDS.length);
    }
    expect(io.lines.filter((l) => /^(PASS|MISS) {2}\[(realistic|pessimistic)\]/.test(l))).toHaveLength(12);
    expect(text).toMatch(/clock mapping, \d+ stamps: \|error\| p50 [\d.]+ us, p99 [\d.]+ us/);
    expect(text).toMatch(/windows: 0 resting p50 [\d.]+ ms/);
  });

  it('prints JSON with --json and rejects bad options', () => {
    const io = memoryOutput();
    expect(benchTimingCommand(['--pairs', '2', '--json', '--no-banner', '--link', 'realistic'], io)).toBe(0);
    const figures = JSON.parse(io.lines.join('\n')) as { links: { link: string; cells: unknown[] }[]; banners: boolean };
    expect(figures.links.map((l) => l.link)).toEqual(['realistic']);
    expect(figures.links[0]?.cells).toHaveLength(PAIR_KINDS.length * BENCH_SEPARATIONS_US.length);
    expect(figures.banners).toBe(false);
    expect(() => benchTimingCommand(['--pairs', '0'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--stations', '1'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--link', 'fast'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--slap-miss', '101'], memoryOutput())).toThrow(UsageError);
    expect(() => benchTimingCommand(['--frobnicate'], memoryOutput())).toThrow(UsageError);
  });
});
