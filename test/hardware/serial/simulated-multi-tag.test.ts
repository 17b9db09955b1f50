/**
 * The simulated stations read every tag in the field, like firmware 0.2.0: a whole Zip-Zap hand laid on a pad
 * gives one TAG+ per card, and each card taken away leaves on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventsOf, rig, type Rig } from './harness.ts';

let current: Rig | undefined;

afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe('several tags on one pad', () => {
  it('reports every tag laid down, and each one taken away', async () => {
    current = rig({ seats: 1 });
    const r = current;
    await r.startAll();
    const hand = Array.from({ length: 13 }, (_, i) => `04C0FFEE00${i.toString(16).padStart(2, '0').toUpperCase()}00`);
    for (const uid of hand) r.table.placeItem('seat-1', { uid, grams: 1.8 });
    await r.until(() => eventsOf(r.events, 'tag-arrived', 'seat-1').length === 13, 2000);
    expect(new Set(eventsOf(r.events, 'tag-arrived', 'seat-1').map((e) => e.uid))).toEqual(new Set(hand));
    r.table.liftItem('seat-1', hand[4] ?? '');
    await r.until(() => eventsOf(r.events, 'tag-left', 'seat-1').length === 1, 2000);
    expect(eventsOf(r.events, 'tag-left', 'seat-1').map((e) => e.uid)).toEqual([hand[4]]);
  });
});
