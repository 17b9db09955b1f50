/**
 * Slap matching: a slap dates the tag arrival whose window holds it only when nothing else could claim
 * either; every ambiguity falls back to the tag's window and says why; a slap no tag claims is a knock.
 */
import { describe, expect, it } from 'vitest';
import type { EventTime, SensorEvent, TagArrival } from '../../../controller/hardware/interface.ts';
import { SlapMatcher, type MatchOutput } from '../../../controller/hardware/serial/slap-matching.ts';

type Slap = Extract<SensorEvent, { kind: 'slap' }>;

const time = (deviceUs: number, beforeUs: number, epoch = 0): EventTime => ({
  source: 'device', epoch, deviceUs, rawUs: deviceUs, hostUs: deviceUs + 1_000_000, uncertaintyUs: 150, beforeUs, afterUs: 0,
});
const slap = (seq: number, deviceUs: number, epoch = 0): Slap => ({ station: 'pile', kind: 'slap', seq, time: time(deviceUs, 80, epoch) });
/** A TAG+ read at `deviceUs` whose arrival window (poll window + power-up) reaches `windowUs` back. */
const tag = (uid: string, deviceUs: number, windowUs = 25_000, epoch = 0): TagArrival =>
  ({ station: 'pile', kind: 'tag-arrived', uid, seq: 100 + deviceUs / 1000, time: time(deviceUs, windowUs, epoch) });

const BURST = 30_000;
const matcher = () => new SlapMatcher({ burstUs: BURST, slapWaitUs: 200_000, memoryUs: 1_000_000 });
const tags = (out: readonly MatchOutput[]) => out.flatMap((o) => (o.kind === 'tag' ? [o.event] : []));
const kinds = (out: readonly MatchOutput[]) => out.map((o) => o.kind);

describe('slap matching', () => {
  it('gives a tag the time of the one slap in its window, once the burst after the read has passed', () => {
    const m = matcher();
    expect(m.slap(slap(1, 1_000_000))).toEqual([]);
    expect(m.tag(tag('A', 1_012_000))).toEqual([]); // held: another tag of the same poll may still come
    expect(m.holding).toBe(true);
    expect(m.releaseAtUs).toBe(1_012_000 + BURST);
    expect(m.observe(0, 1_012_000 + BURST - 4)).toEqual([]);
    const [released] = tags(m.observe(0, 1_012_000 + BURST));
    expect(released).toMatchObject({ uid: 'A', slap: { seq: 1, time: { deviceUs: 1_000_000, beforeUs: 80 } } });
    expect(released?.slapAmbiguous).toBeUndefined();
    expect(released?.time.deviceUs).toBe(1_012_000); // the read itself is kept
    expect(m.holding).toBe(false);
  });

  it('does not hold tags of a station that has sent no slap this boot', () => {
    const m = matcher();
    const out = m.tag(tag('A', 1_012_000));
    expect(tags(out)).toEqual([tag('A', 1_012_000)]);
    expect(m.holding).toBe(false);
  });

  it('falls back to the window with two slaps in it (a knock, or a second card not read yet)', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.slap(slap(2, 1_006_000));
    m.tag(tag('A', 1_012_000));
    const [released] = tags(m.flush());
    expect(released).toMatchObject({ uid: 'A', slapAmbiguous: 'several-slaps' });
    expect(released?.slap).toBeUndefined();
  });

  it('falls back for both tags when one slap lies in the windows of two new tags (one slap for two cards)', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.tag(tag('A', 1_012_000));
    m.tag(tag('B', 1_019_000, 32_000)); // the next step of the same burst: its window starts at the same poll
    const out = m.observe(0, 1_019_000 + BURST);
    expect(tags(out).map((t) => [t.uid, t.slapAmbiguous, t.slap])).toEqual([['A', 'several-tags', undefined], ['B', 'several-tags', undefined]]);
  });

  it('falls back when the second tag of the burst is stamped after the first one\'s burst (seen as a rival while still held)', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.tag(tag('A', 1_012_000));
    // B's stamp releases A — but B is already held, so A sees it as a rival.
    const out = m.tag(tag('B', 1_012_000 + BURST, BURST + 20_000));
    expect(tags(out)).toEqual([expect.objectContaining({ uid: 'A', slapAmbiguous: 'several-tags' })]);
    expect(tags(m.flush())).toEqual([expect.objectContaining({ uid: 'B', slapAmbiguous: 'several-tags' })]);
  });

  it('reports a tag that claims a slap already given to a tag released before it arrived, and falls back', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.tag(tag('A', 1_012_000));
    expect(tags(m.observe(0, 1_050_000))[0]?.slap?.seq).toBe(1);
    expect(m.tag(tag('B', 1_060_000, 70_000))).toEqual([]); // its window reaches back over the slap
    const out = m.flush();
    expect(kinds(out)).toEqual(['late', 'tag']);
    expect(out[0]).toMatchObject({ kind: 'late', event: { uid: 'B' }, slap: { seq: 1 }, earlier: { uid: 'A' } });
    expect(tags(out)).toEqual([expect.objectContaining({ uid: 'B', slapAmbiguous: 'several-tags' })]);
  });

  it('still matches when the SLAP line comes after the TAG+ line', () => {
    const m = matcher();
    m.slap(slap(1, 500_000)); // the station has a slap sensor
    m.observe(0, 900_000);
    m.tag(tag('A', 1_012_000));
    m.slap(slap(2, 1_003_000));
    expect(tags(m.observe(0, 1_050_000))[0]).toMatchObject({ uid: 'A', slap: { seq: 2 } });
  });

  it('matches only a slap whose whole interval lies in the window stretched back by the lead', () => {
    const m = matcher();
    // The window [987 000, 1 012 000] stretched back by the 5 ms lead starts at 982 000; this slap's interval
    // [981 960, 982 040] starts before it.
    m.slap(slap(1, 982_040));
    m.tag(tag('A', 1_012_000));
    const [first] = tags(m.flush());
    expect(first?.slap).toBeUndefined();
    expect(first?.slapAmbiguous).toBeUndefined();
    m.slap(slap(2, 1_020_000)); // after the read: the card was read before it landed; no match
    m.tag(tag('B', 1_020_000 - 4, 10_000));
    expect(tags(m.flush())[0]?.slap).toBeUndefined();
  });

  it('matches a slap that came up to the lead before the window: a card slapped down flat, the hand first', () => {
    // hardware/protocol.md: the landing is the impact; the TAG+ window holds the field entry, which may follow
    // it by a few ms (0.05-3 ms measured, issue 17).
    const m = matcher();
    m.slap(slap(1, 987_000 - 2_900)); // 2.9 ms before the window [987 000, 1 012 000]
    m.tag(tag('A', 1_012_000));
    const [released] = tags(m.flush());
    expect(released).toMatchObject({ uid: 'A', slap: { seq: 1, time: { deviceUs: 984_100 } } });
    expect(released?.slapAmbiguous).toBeUndefined();
  });

  it('with leadUs 0 only a slap inside the window itself fits (the rule before firmware 0.4.0)', () => {
    const m = new SlapMatcher({ burstUs: BURST, slapWaitUs: 200_000, memoryUs: 1_000_000, leadUs: 0 });
    m.slap(slap(1, 987_000 - 2_900));
    m.tag(tag('A', 1_012_000));
    expect(tags(m.flush())[0]?.slap).toBeUndefined();
  });

  it('a slap within the lead of a second tag\'s window is a rival there too (several-tags)', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.tag(tag('A', 1_012_000)); // window [987 000, 1 012 000]: holds the slap
    m.tag(tag('B', 1_026_000, 22_000)); // window [1 004 000, 1 026 000]: the slap is 4 ms before it, within the lead
    const out = tags(m.flush());
    expect(out.map((t) => t.slapAmbiguous)).toEqual(['several-tags', 'several-tags']);
  });

  it('reports a slap no tag followed as a knock, once, after the wait', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    expect(m.observe(0, 1_199_000)).toEqual([]);
    expect(m.observe(0, 1_200_000)).toEqual([{ kind: 'knock', slap: slap(1, 1_000_000) }]);
    expect(m.observe(0, 1_300_000)).toEqual([]);
    // Remembered nonetheless: a tag whose window holds it (read very late) is not given the other slap alone.
    m.slap(slap(2, 1_290_000));
    m.tag(tag('A', 1_300_000, 400_000));
    expect(tags(m.flush())[0]).toMatchObject({ slapAmbiguous: 'several-slaps' });
  });

  it('falls back when the window reaches back past the slaps it remembers', () => {
    const m = new SlapMatcher({ burstUs: BURST, slapWaitUs: 200_000, memoryUs: 100_000 });
    m.slap(slap(1, 1_000_000));
    m.slap(slap(2, 1_150_000)); // slap 1 is forgotten now
    m.tag(tag('A', 1_160_000, 200_000));
    expect(tags(m.flush())[0]).toMatchObject({ slapAmbiguous: 'several-slaps' });
  });

  it('never matches across a restart, and decides what was held when the new boot shows up', () => {
    const m = matcher();
    m.slap(slap(1, 1_000_000));
    m.tag(tag('A', 1_012_000));
    const out = m.observe(1, 5_000); // the new boot's first line
    expect(kinds(out)).toEqual(['tag']);
    expect(tags(out)[0]?.slap?.seq).toBe(1); // decided on the old boot's lines
    // The new boot has shown no sensor yet: not held.
    expect(tags(m.tag(tag('B', 20_000, 25_000, 1)))[0]?.slap).toBeUndefined();
    // Device times of two boots are not comparable: the old boot's slap at 1 000 000 µs is not in this window.
    m.slap(slap(7, 1_005_000, 1));
    m.tag(tag('C', 1_012_000, 25_000, 1));
    expect(tags(m.flush())[0]).toMatchObject({ uid: 'C', slap: { seq: 7 } });
  });
});
