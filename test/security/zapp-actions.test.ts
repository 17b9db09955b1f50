/**
 * Item 9 of issue 10: Zapp Zerapp actions with unknown fields are refused (UNKNOWN_FIELD, naming the field), as
 * Zip-Zap's are, instead of silently becoming the default move. Sent from outside as `action` requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Referee, startRig, type Rig } from './support/rig.ts';

let rig: Rig | undefined;
let referee: Referee | undefined;

afterEach(async () => {
  await referee?.close();
  await rig?.dispose();
  rig = undefined;
  referee = undefined;
});

describe('Zapp Zerapp actions', () => {
  it('with an unknown or misspelled field are refused with UNKNOWN_FIELD and change nothing', async () => {
    rig = await startRig({ broker: 'embedded', tables: [{ id: 'z1', mode: 'zapp-zerapp', seats: ['red', 'green'] }] });
    referee = await Referee.connect(rig.brokerUrl);
    const before = JSON.stringify(rig.app.tableState('z1'));
    for (const action of [
      { type: 'roll', player: 'red', to: 7 },
      { type: 'enter-dice', d1: 3, d2: 4, player: 'red', dice: 7 },
      { type: 'move', player: 'red', piece: 'RED1', intoCty: { RED2: true } },
      { type: 'place', player: 'red', barrel: 4, secretly: true },
    ]) {
      const answer = await referee.request('z1', 'action', { action });
      expect(answer.error?.code, JSON.stringify(action)).toBe('UNKNOWN_FIELD');
      expect(answer.error?.message).toMatch(/unknown field/);
    }
    expect(JSON.stringify(rig.app.tableState('z1'))).toBe(before);
  });
});
