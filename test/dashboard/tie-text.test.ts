/** The sentence a referee reads for a pending Zip-Zap tie, with its figures. */
import { describe, expect, it } from 'vitest';
import { span, tieSentence } from '../../dashboard/web/tie-text.ts';

const tag = (player: string, at: number, half: number) => ({ player, at, atEarliest: at - half, atLatest: at + half, timedBy: 'tag' as const });

describe('tie sentence', () => {
  it('gives the separation and each landing\'s precision and source', () => {
    const tie = { contenders: [tag('ana', 100, 4), tag('ben', 101.2, 4)], separationMs: 1.2, combinedUncertaintyMs: 8, tieWindowMs: 0, queued: 0 };
    expect(tieSentence(tie)).toBe('ana and ben landed 1.2 ms apart, each ±4.0 ms (tag windows): who was first?');
  });

  it('shows the widest when the widths differ a little (the stations\' clock bounds)', () => {
    const tie = { contenders: [tag('ana', 100, 27.6), tag('ben', 101.2, 27.9)], separationMs: 1.2, combinedUncertaintyMs: 55.5, tieWindowMs: 0, queued: 0 };
    expect(tieSentence(tie)).toBe('ana and ben landed 1.2 ms apart, each ±27.9 ms (tag windows): who was first?');
  });

  it('names each contender\'s precision when they differ, an exact entry, and the tie window', () => {
    const tie = {
      contenders: [
        { player: 'ana', at: 100, atEarliest: 99.875, atLatest: 100.125, timedBy: 'slap' as const },
        tag('ben', 100.4, 12), { player: 'cy', at: 100.5 },
      ],
      separationMs: 0.5, combinedUncertaintyMs: 12.125, tieWindowMs: 20, queued: 0,
    };
    expect(tieSentence(tie)).toBe('ana, ben and cy landed 500 µs apart, ana ±125 µs (slap sensor), ben ±12.0 ms (tag window), cy exact, '
      + 'within the 20.0 ms tie window: who was first?');
  });

  it('reads spans below a millisecond in µs', () => {
    expect(span(0.0498)).toBe('50 µs');
    expect(span(41.52)).toBe('41.5 ms');
  });
});
