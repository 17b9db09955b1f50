/**
 * Late lines (controller/rules/zip-zap/late-plays.ts; docs/timing.md §3.5): a play whose line arrives after
 * later plays were applied is judged where its landing interval puts it — re-ordered within the look-back, a
 * tie where the intervals overlap, refused (LATE_PLAY) beyond it — and within the look-back the outcome does
 * not depend on the order the lines arrived in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zipZapEngine, type BatchPlay, type PlayAction, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';

type PlaySpec = BatchPlay & { readonly at: number };
import { byTime } from '../../../controller/rules/zip-zap/ties.ts';
import { codeOf, omni, run, scenario } from './helpers.ts';

const slap = (player: string, card: string, at: number): PlaySpec => ({ player, card, at, atEarliest: at - 0.125, atLatest: at + 0.125, timedBy: 'slap' });
const tag = (player: string, card: string, at: number): PlaySpec => ({ player, card, at, atEarliest: at - 4, atLatest: at + 4, timedBy: 'tag' });
const batch = (...plays: PlaySpec[]) => ({ type: 'plays' as const, plays });
const single = (p: PlaySpec): PlayAction => ({ type: 'play', ...p, card: p.card ?? '' });

const race = (config: Record<string, unknown> = {}): ZipZapState => scenario({
  players: ['A', 'B', 'C'], config,
  hands: { A: ['R4', 'B6', 'Y5', 'Z(A)'], B: ['R5', 'W4', 'W5', 'Z(B)'], C: ['B1', 'R6', 'W6', 'Z(C)'] },
  top: { card: 'R3', by: 'C' },
});

describe('late lines within the look-back', () => {
  it('a late line with an earlier landing takes the applied play back and is applied first', () => {
    const first = run(race(), batch(slap('A', 'R4', 100)));
    const late = run(first.state, batch(slap('B', 'W4', 97)));
    expect(late.events.map((e) => e.type)).toEqual(['PLAYS_REORDERED', 'CARD_PLAYED', 'PLAY_REJECTED']);
    expect(late.events[0]).toEqual({ type: 'PLAYS_REORDERED', player: 'B', at: 97, takenBack: [{ player: 'A', at: 100 }] });
    expect(omni(late.state).top?.card).toBe('W4');
    expect(omni(late.state).hands.A).toContain('R4');
  });

  it('plays taken back are applied again after the late one, each judged on the top at its moment', () => {
    const s = run(race(), batch(slap('A', 'R4', 100)), batch(slap('B', 'R5', 120))).state;
    const late = run(s, batch(slap('C', 'B1', 90)));
    // C's B1 does not follow R3 (refused at its moment); R4 and R5 are applied again, in their order.
    expect(late.events.map((e) => e.type)).toEqual(['PLAYS_REORDERED', 'PLAY_REJECTED', 'CARD_PLAYED', 'CARD_PLAYED']);
    expect(omni(late.state).top?.card).toBe('R5');
  });

  it('a late line whose interval overlaps the applied play of another player on the same top raises the tie', () => {
    const s = run(race(), batch(tag('A', 'R4', 100))).state;
    const late = run(s, batch(tag('B', 'W4', 99)));
    const tie = late.events.find((e) => e.type === 'TIE_PENDING');
    expect(tie).toMatchObject({ separationMs: 1, combinedUncertaintyMs: 8 });
    expect(late.state.tie?.contenders.map((c) => c.player)).toEqual(['B', 'A']);
    expect(omni(late.state).top?.card).toBe('R3');
  });
});

describe('a late line that landed before the contenders of a pending tie', () => {
  it('takes the tie back and applies everything again in landing order', () => {
    const tied = run(race(), batch(tag('A', 'R4', 100)), batch(tag('B', 'W4', 101))).state;
    expect(tied.tie?.contenders.map((c) => c.player)).toEqual(['A', 'B']);
    const late = run(tied, batch(slap('C', 'B1', 90)));
    expect(late.events.map((e) => e.type)).toEqual(['PLAYS_REORDERED', 'PLAY_REJECTED', 'CARD_PLAYED', 'TIE_PENDING']);
    expect(late.events[0]).toMatchObject({ takenBack: [{ player: 'A', at: 100 }, { player: 'B', at: 101 }] });
    expect(late.state.tie?.contenders.map((c) => c.player)).toEqual(['A', 'B']);
  });
});

describe('beyond the look-back: an explicit refusal for the referee', () => {
  it('refuses a play that landed before a play dropped from the look-back (LATE_PLAY), and takes nothing back', () => {
    const s = run(race({ reorderLookBackMs: 50 }), batch(slap('A', 'R4', 100)), batch(slap('B', 'R5', 200))).state;
    expect(s.recent.map((r) => r.play.player)).toEqual(['B']);
    const late = run(s, batch(slap('C', 'R6', 90)));
    expect(late.events).toEqual([expect.objectContaining({ type: 'PLAY_REJECTED', player: 'C', code: 'LATE_PLAY' })]);
    expect(omni(late.state).top?.card).toBe('R5');
    const alone = zipZapEngine.apply(s, single(slap('C', 'R6', 90)));
    expect(codeOf(alone)).toBe('LATE_PLAY');
    expect(!alone.ok && alone.message).toContain('90 ms');
    // The same late play inside the default look-back (500 ms) is put in its place.
    const within = run(run(race(), batch(slap('A', 'R4', 100)), batch(slap('B', 'R5', 200))).state, batch(slap('C', 'R6', 90)));
    expect(within.events[0]).toMatchObject({ type: 'PLAYS_REORDERED' });
  });

  it('another action ends the look-back: a play that landed before it is refused', () => {
    const s = run(race({ stuckDetection: 'HUMAN' }), batch(slap('A', 'R4', 100))).state;
    const declared = run(s, { type: 'declare-stuck', player: 'A', at: 2000 }).state;
    expect(declared.recent).toEqual([]);
    expect(declared.settled).toMatchObject({ at: 100 });
    expect(codeOf(zipZapEngine.apply(declared, single(slap('B', 'W4', 97))))).toBe('LATE_PLAY');
  });

  it('a play that overlaps a play that can no longer be taken back is refused too (it may have come first)', () => {
    const s = run(race({ reorderLookBackMs: 0 }), batch(tag('A', 'R4', 100)), batch(tag('B', 'R5', 120))).state;
    expect(codeOf(zipZapEngine.apply(s, single(tag('C', 'R6', 103))))).toBe('LATE_PLAY');
  });

  it('a player\'s own next play after their settled one is never LATE_PLAY, however wide its interval', () => {
    // A's R4 is settled (the look-back ended with another action); A plays again 2 ms later, both tag-dated:
    // the intervals overlap, but one player's plays are ordered by their best estimates, never tied.
    const s = run(race({ stuckDetection: 'HUMAN' }), batch(tag('A', 'R4', 100))).state;
    const settled = run(s, { type: 'declare-stuck', player: 'B', at: 2000 }).state;
    expect(settled.settled).toMatchObject({ at: 100, by: 'A' });
    expect(codeOf(zipZapEngine.apply(settled, single(tag('A', 'Y5', 102))))).not.toBe('LATE_PLAY');
    // Another player's play overlapping it is still refused (it may have come first).
    expect(codeOf(zipZapEngine.apply(settled, single(tag('B', 'W4', 102))))).toBe('LATE_PLAY');
  });

  it('a play whose landing is unknown (a station not synced yet: ±1000 s) never settles, so it cannot block the table', () => {
    // The demo's stall: an unsynced play was settled with its ±1000 s interval, and every later play overlapped
    // it and was refused as LATE_PLAY, for as long as the interval lasted.
    const unsynced: PlaySpec = { player: 'A', card: 'R4', at: 100, atEarliest: 100 - 1e6, atLatest: 100 + 1e6, timedBy: 'tag' }; // ±1000 s
    const s = run(race({ stuckDetection: 'HUMAN' }), batch(unsynced)).state;
    const declared = run(s, { type: 'declare-stuck', player: 'B', at: 2000 }).state;
    expect(declared.settled).toBeNull();
    expect(codeOf(zipZapEngine.apply(declared, single(slap('B', 'W4', 5000))))).not.toBe('LATE_PLAY');
  });

  it('validates reorderLookBackMs', () => {
    expect(zipZapEngine.setup({ players: ['A', 'B'], reorderLookBackMs: -1 }, 1)).toMatchObject({ ok: false, code: 'BAD_CONFIG' });
    expect(zipZapEngine.setup({ players: ['A', 'B'], reorderLookBackMs: 'x' } as unknown as { players: string[] }, 1)).toMatchObject({ ok: false, code: 'BAD_CONFIG' });
  });
});

describe('arrival order within the look-back decides nothing', () => {
  const CARDS: Record<string, readonly string[]> = { A: ['R4', 'B6', 'Y5', 'zap'], B: ['R5', 'W4', 'W5', 'zap'], C: ['B1', 'R6', 'W6', 'zap'] };
  type Pick = { player: string; pick: number; width: string };
  const playsOf = (p: fc.Arbitrary<Pick>, maxAt: number) => fc.uniqueArray(
    fc.record({ p, at: fc.integer({ min: 0, max: maxAt }) }), {
      minLength: 1, maxLength: 5, selector: (x) => x.at,
    }).map((xs) => {
    const seen = new Set<string>();
    const out: PlaySpec[] = [];
    for (const { p, at } of xs) {
      const card = CARDS[p.player]?.[p.pick] as string;
      if (seen.has(p.player + card)) continue;
      seen.add(p.player + card);
      const base = card === 'zap' ? { player: p.player, zap: true } : { player: p.player, card };
      if (p.width === 'exact') out.push({ ...base, at });
      else if (p.width === 'slap') out.push({ ...base, at, atEarliest: at - 0.125, atLatest: at + 0.125, timedBy: 'slap' });
      else out.push({ ...base, at: at - 4, atEarliest: at - 8, atLatest: at, timedBy: 'tag' });
    }
    return out;
  });
  // Slap-dated and exact plays at whole, distinct ms: the kernel orders every pair (no overlap, no tie).
  const plays = playsOf(fc.record({
    player: fc.constantFrom('A', 'B', 'C'), pick: fc.nat(3), width: fc.constantFrom('slap', 'exact'),
  }), 100);
  // Tag-dated cards of A and B (R4 and W4 both follow R3) landing within a few ms of each other: ties.
  const close = playsOf(fc.record({
    player: fc.constantFrom('A', 'B'), pick: fc.constantFrom(0, 1), width: fc.constant('tag'),
  }), 12);

  // The lines in landing order: by best estimate, equal ones in the engine's fixed order (player, card).
  /** What the table ends with: the pile, the hands, the mode and the pending tie (contenders and queue). */
  function outcome(arrival: readonly PlaySpec[]): unknown {
    let s = race();
    for (const p of arrival) {
      const r = zipZapEngine.apply(s, batch(p));
      if (r.ok) s = r.state;
    }
    const v = omni(s);
    return {
      pile: s.pile.map((c) => `${c.by ?? ''}:${c.card}`), hands: v.hands, mode: s.mode,
      tie: s.tie === null ? null : { contenders: s.tie.contenders.map((c) => c.player).sort(), queued: s.tie.queued.length },
      late: s.rejected.filter((r) => r.code === 'LATE_PLAY').length,
    };
  }

  function shuffle(ps: readonly PlaySpec[], randoms: fc.Stream<number>): PlaySpec[] {
    const out = [...ps];
    const it = randoms[Symbol.iterator]();
    for (let i = out.length - 1; i > 0; i--) {
      const j = (it.next().value as number) % (i + 1);
      [out[i], out[j]] = [out[j] as PlaySpec, out[i] as PlaySpec];
    }
    return out;
  }

  it('plays the kernel can order: every arrival order (each line its own batch) ends as the lines in landing order', () => {
    fc.assert(fc.property(plays, fc.infiniteStream(fc.nat()), (ps, randoms) => {
      expect(outcome(shuffle(ps, randoms))).toEqual(outcome([...ps].sort(byTime)));
    }), { numRuns: 400 });
  });

  it('with a tie, every arrival order ends in a tie for the referee or an explicit LATE_PLAY, never silently decided', () => {
    fc.assert(fc.property(close, fc.infiniteStream(fc.nat()), (ps, randoms) => {
      const inOrder = outcome([...ps].sort(byTime)) as { tie: unknown };
      fc.pre(inOrder.tie !== null);
      const shuffled = outcome(shuffle(ps, randoms)) as { tie: unknown; late: number };
      expect(shuffled.tie !== null || shuffled.late > 0).toBe(true);
    }), { numRuns: 200 });
  });
});

describe('a state saved before the look-back existed', () => {
  it('is played on with an empty look-back (a log snapshot with the old single undo point)', () => {
    const { recent: _recent, settled: _settled, ...old } = run(race(), batch(slap('A', 'R4', 100))).state;
    const saved = { ...old, undo: null } as unknown as ZipZapState;
    const next = run(saved, batch(slap('B', 'R5', 120)));
    expect(next.state.recent.map((r) => r.play.player)).toEqual(['B']);
    expect(next.state).not.toHaveProperty('undo');
    expect(omni(next.state).top?.card).toBe('R5');
  });
});
