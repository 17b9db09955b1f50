/**
 * The health topic's live pad readings follow each game's table plug-in (`padSecret`): seat pads are withheld
 * on Zip-Zap and Killer-21 tables (a card on a seat pad may go back to a hand), a card on the pile station is
 * named only while the public pile holds it (rules/common/spectator.ts), and a game the registry does not know is
 * withheld (the safe side).
 */
import { describe, expect, it } from 'vitest';
import { PadReadings } from '../../controller/app/pad-readings.ts';
import { simulatedRegistry, simulatedUid } from '../../controller/app/simulated-items.ts';
import type { EventTime } from '../../controller/hardware/interface.ts';

const time: EventTime = { source: 'device', epoch: 0, deviceUs: 1, rawUs: 1, hostUs: 1, uncertaintyUs: 100, beforeUs: 0, afterUs: 0 };

describe('pad readings by game', () => {
  it('withholds Killer-21 seat pads, names a pile card only while the public pile holds it, and withholds an unknown game', () => {
    const pads = new PadReadings(simulatedRegistry());
    const uid = simulatedUid({ kind: 'k21', card: 'R0-1' });
    for (const station of ['seat-1', 'pile-1']) {
      pads.update({ kind: 'tag-arrived', station, uid, time });
      pads.update({ kind: 'weight-settled', station, grams: 1.8, time });
    }
    const played = { pile: [{ card: 'R0-1', by: 'ana', kind: 'PLAY' }] };
    expect(pads.reading('seat-1', 'killer-21', played, 'seat')).toEqual({ grams: null, tag: null, hidden: true });
    expect(pads.reading('pile-1', 'killer-21', played, 'pile')).toEqual({ grams: 1.8, tag: { kind: 'k21', label: 'Killer-21 card R0-1' } });
    // Read through its back (dealt across the pile, or laid there and refused): not a card the pile holds.
    expect(pads.reading('pile-1', 'killer-21', { pile: [] }, 'pile')).toEqual({ grams: null, tag: null, hidden: true });
    expect(pads.reading('seat-1', 'chess', played, 'seat')).toMatchObject({ hidden: true });
  });
});
