import { describe, expect, it } from 'vitest';
import type { StationHealth } from '../../controller/hardware/interface.ts';
import type { HealthPayload } from '../../controller/transport/payloads.ts';
import { idleStateOf, publicEventOf, publicStateOf, tableEventOf } from '../../controller/transport/public-view.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { zappZerappEngine } from '../../controller/rules/zapp-zerapp/index.ts';
import { zipZapEngine } from '../../controller/rules/zip-zap/index.ts';

const META = { seq: 9, at: 5000 };

describe('public state', () => {
  it('is the engine\'s public view, never the omniscient one', () => {
    const setup = zipZapEngine.setup({ players: ['ana', 'ben'] }, 1);
    if (!setup.ok) throw new Error(setup.message);
    const state = publicStateOf(zipZapEngine, setup.state, META);
    expect(state).toMatchObject({ mode: 'game', game: 'zip-zap', seq: 9, at: 5000 });
    expect(state.view).toEqual(zipZapEngine.view(setup.state, { role: 'public' }));
    expect(JSON.stringify(state)).not.toContain('"hands"');
    expect(JSON.stringify(zipZapEngine.view(setup.state, OMNISCIENT))).toContain('"hands"');
  });

  it('hides Zapp Zerapp barrels before the reveal', () => {
    const setup = zappZerappEngine.setup({ players: ['ana', 'ben'] }, 1);
    if (!setup.ok) throw new Error(setup.message);
    const published = JSON.stringify(publicStateOf(zappZerappEngine, setup.state, META));
    expect(published).toEqual(JSON.stringify({ mode: 'game', game: 'zapp-zerapp', seq: 9, at: 5000, view: zappZerappEngine.view(setup.state, { role: 'public' }) }));
  });

  it('has an idle form', () => {
    expect(idleStateOf(META)).toEqual({ mode: 'idle', seq: 9, at: 5000 });
  });
});

describe('public events', () => {
  it('drops Zip-Zap events that give hidden information away', () => {
    expect(publicEventOf('zip-zap', { type: 'STUCK_WARNING', couldPlay: ['ana'] }, META)).toBeNull();
    expect(publicEventOf('zip-zap', { type: 'STUCK_DETECTED', top: 'R3', controller: 'ana' }, META)).toBeNull();
  });

  it('strips cards that went back to a hand', () => {
    const event = publicEventOf('zip-zap', { type: 'HAND_REGISTERED', player: 'ana', count: 2, cards: ['R1', 'B2'] }, META);
    expect(event).toEqual({ type: 'HAND_REGISTERED', player: 'ana', count: 2, cards: [], seq: 9, at: 5000 });
  });

  it('keeps an event\'s own time, otherwise uses the action\'s', () => {
    expect(publicEventOf('zip-zap', { type: 'CARD_PLAYED', player: 'ana', card: 'R3', kind: 'FOLLOW', at: 4321 }, META))
      .toMatchObject({ seq: 9, at: 4321, card: 'R3' });
    expect(publicEventOf('zapp-zerapp', { type: 'DICE_ROLLED', d1: 1, d2: 2 }, META)).toMatchObject({ seq: 9, at: 5000 });
    expect(tableEventOf({ type: 'STATION_REMOVED', station: 's1' }, META)).toEqual({ type: 'STATION_REMOVED', station: 's1', seq: 9, at: 5000 });
  });

  it('ignores values that are not events', () => {
    expect(publicEventOf('zapp-zerapp', 'nonsense', META)).toBeNull();
    expect(publicEventOf('zip-zap', { kind: 'no type' }, META)).toBeNull();
  });
});

describe('payload types', () => {
  it('accepts the hardware layer\'s StationHealth as a health payload', () => {
    // A compile-time check (tsc runs over the tests): if StationHealth gains a field HealthPayload lacks, or
    // changes a type, this assignment stops compiling.
    const health: StationHealth = {
      station: 's1', kind: 'seat', online: true,
      errors: { badLines: 0, lostEvents: 0, timeouts: 0, commandErrors: 0, resets: 0, disconnects: 0 },
    };
    const payload: HealthPayload = health;
    const back: StationHealth = payload;
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
    const sameFields: Same<keyof StationHealth, keyof HealthPayload> = true;
    const sameErrorFields: Same<keyof StationHealth['errors'], keyof HealthPayload['errors']> = true;
    expect([back, sameFields, sameErrorFields]).toEqual([health, true, true]);
  });
});
