/**
 * The recent events in the order things happened, and the plays a tie or a late line took back said as such
 * (dashboard/web/event-order.ts), on the event sequence a Zip-Zap tie ruled by the referee publishes.
 */
import { describe, expect, it } from 'vitest';
import { inTimeOrder, playNotes } from '../../dashboard/web/event-order.ts';
import { describeZipEvent } from '../../dashboard/web/games/zip-zap/events.ts';
import type { PublicEventJson } from '../../dashboard/web/types.ts';

/** Ana's G2 lands at 1000 and is applied; Ben's W2 landed at 999.5: a tie; the referee rules Ben first at 4000. */
const TIE: readonly PublicEventJson[] = [
  { type: 'CARD_PLAYED', seq: 10, at: 1000, player: 'ana', card: 'G2', kind: 'FOLLOW' },
  {
    type: 'TIE_PENDING', seq: 11, at: 1001, separationMs: 0.5, combinedUncertaintyMs: 24, tieWindowMs: 0,
    contenders: [{ player: 'ben', at: 999.5, card: 'W2' }, { player: 'ana', at: 1000, card: 'G2' }],
  },
  { type: 'TIE_RESOLVED', seq: 12, at: 4000, first: 'ben' },
  { type: 'CARD_PLAYED', seq: 13, at: 999.5, player: 'ben', card: 'W2', kind: 'FOLLOW' },
  { type: 'PLAY_REJECTED', seq: 14, at: 1000, player: 'ana', card: null, code: 'HIDDEN_REASON', message: 'play refused … (the referee finds it in the event log)' },
];

const names: Readonly<Record<string, string>> = { ana: 'Ana', ben: 'Ben' };
const nameOf = (id: string): string => names[id] ?? id;

describe('recent events', () => {
  it('are in the order things happened: the ruled play where it landed, never a time running backwards', () => {
    const ordered = inTimeOrder(TIE);
    expect(ordered.map((e) => e.seq)).toEqual([13, 10, 14, 11, 12]);
    const times = ordered.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('say a play taken back for a tie as contested, the play the referee put first as ruled, the tie with its cards', () => {
    const notes = playNotes(TIE);
    const lines = new Map(TIE.map((e) => [e.seq, describeZipEvent(e, nameOf, notes.get(e.seq))]));
    expect(lines.get(10)).toBe('Ana\'s green 2 landed together with another card: contested until the referee rules');
    expect(lines.get(11)).toBe('Tie: Ben\'s wild 2 and Ana\'s green 2 landed too close together to order — the referee decides which was first');
    expect(lines.get(12)).toBe('The referee ruled: Ben\'s card landed first');
    expect(lines.get(13)).toBe('Ben played wild 2 (the referee ruled it first)');
    expect(lines.get(14)).toBe('Ana\'s card was refused (the reason is hidden: it depends on the cards in hand)');
  });

  it('say a play a late line took back as taken back', () => {
    const late: PublicEventJson[] = [
      { type: 'CARD_PLAYED', seq: 1, at: 500, player: 'ana', card: 'R4', kind: 'FOLLOW' },
      { type: 'PLAYS_REORDERED', seq: 2, at: 450, player: 'ben', takenBack: [{ player: 'ana', at: 500 }] },
    ];
    expect(playNotes(late).get(1)).toBe('late');
    expect(playNotes(TIE.slice(0, 1)).size).toBe(0);
  });
});
