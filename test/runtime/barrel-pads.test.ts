import { describe, expect, it } from 'vitest';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZappState } from '../../controller/rules/zapp-zerapp/index.ts';
import { placementIntents } from '../../controller/runtime/zapp-zerapp/barrel-pads.ts';
import { EMPTY_REGISTRY, enrollTag } from '../../controller/runtime/registry/tag-registry.ts';

describe('barrel placement from the pads', () => {
  it('flags a barrel whose tag and weight disagree without naming the barrel before the reveal', () => {
    const enrolled = enrollTag(EMPTY_REGISTRY, 'B0000007', { kind: 'barrel', value: 7 });
    if (!enrolled.ok) throw new Error(enrolled.message);
    const engine = getEngine('zapp-zerapp');
    const setup = engine.setup({ players: ['red', 'green'] }, 1);
    if (!setup.ok) throw new Error(setup.message);
    const rolled = engine.apply(setup.state, { type: 'enter-dice', d1: 3, d2: 4 } as never);
    if (!rolled.ok) throw new Error(rolled.message);
    const weights = { emptyGrams: 21.5, stoneGrams: 4.2, rmsResidualGrams: 0, samples: 3 };
    // Barrel 7 weighs like barrel 9 (two stones too many).
    const pads = { 'seat-1': { station: 'seat-1', tags: ['B0000007'], grams: 21.5 + 4.2 * 9, settledSinceChange: true } };
    const intents = placementIntents(rolled.state as ZappState, pads, { seatOfStation: { 'seat-1': 'red' }, registry: enrolled.registry, weights, minBarrelGrams: 10 }, 0);
    expect(intents).toEqual([
      expect.objectContaining({ kind: 'notice', code: 'WEIGHT_MISMATCH', station: 'seat-1' }),
      { kind: 'action', action: { type: 'place', player: 'red', barrel: 7, at: 0 } },
    ]);
    const notice = JSON.stringify(intents[0]);
    expect(notice).not.toMatch(/barrel \d|\d+ stone|7|9/);
  });
});
