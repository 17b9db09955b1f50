/**
 * MQTT requests on a Killer-21 table (the embedded broker, the real controller on the simulated table): the
 * requests that belong to other games answer NOT_AVAILABLE (each game's definition lists its own), `new-game`
 * starts a Killer-21 game and refuses another game, the simulator panel taps Killer-21 cards, and an engine
 * refusal keeps its public code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Referee, startRig, type Rig, type TableSpec } from './support/rig.ts';

let rig: Rig | undefined;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.dispose();
  rig = undefined;
});

const K21: TableSpec = { id: 'k1', mode: 'killer-21', seats: ['ana', 'ben', 'cy'] };

describe('requests on a Killer-21 table', () => {
  it('answers other games\' requests NOT_AVAILABLE and its own through the engine', async () => {
    rig = await startRig({ broker: 'embedded', tables: [K21] });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    for (const [name, params] of [['roll', {}], ['enter-dice', { d1: 1, d2: 2 }], ['declare-stuck', {}]] as const) {
      const answer = await r.request('k1', name, params);
      expect(answer.error?.code, name).toBe('NOT_AVAILABLE');
      expect(answer.error?.message).toContain('plays killer-21');
    }
    expect((await r.request('k1', 'new-game', { game: 'zip-zap', players: ['ana', 'ben'] })).error?.code).toBe('NOT_AVAILABLE');
    expect(await r.request('k1', 'new-game', { game: 'killer-21', players: ['ana', 'ben', 'cy'], seed: 3 }))
      .toMatchObject({ status: 'ok', data: { game: 'killer-21' } });
    // next-round is Killer-21's own request: it reaches the engine, which refuses it mid-round.
    const early = await r.request('k1', 'next-round', {});
    expect(early.error?.code).not.toBe('NOT_AVAILABLE');
    expect(early.status).toBe('error');
    // A Killer-21 card is an item the simulator knows: the answer is the table's verdict on it (applied, or a
    // public refusal such as HIDDEN_REASON when the card is not the player's), never a refusal of the item.
    const tap = await r.request('k1', 'simulate', { station: 'pile-1', op: 'tap', item: { kind: 'k21', card: 'R3-1' } });
    expect(['UNKNOWN_ITEM', 'INVALID_REQUEST', 'UNKNOWN_TAG']).not.toContain(tap.error?.code);
    expect(tap.status === 'ok' || tap.error.code === 'HIDDEN_REASON', JSON.stringify(tap)).toBe(true);
    expect((await r.request('k1', 'simulate', { station: 'seat-1', op: 'place', item: { kind: 'chip', chip: 37 } })).error?.code)
      .toBe('INVALID_REQUEST');
  }, 60_000);
});

describe('a referee\'s new game on a Killer-21 table', () => {
  it('keeps the table\'s configured rules unless the request changes them, and never deals the same seed twice', async () => {
    const spec: TableSpec = {
      ...K21, id: 'k2', extra: ['    seed: 7', '    rules:', '      lives: 3', '      handSize: 3', '      deck: { KILLER: 0 }'],
    };
    rig = await startRig({ broker: 'embedded', tables: [spec] });
    const r = await Referee.connect(rig.brokerUrl);
    closers.push(async () => r.close());
    const app = rig.app;
    const config = (): Record<string, unknown> => {
      const t = app.tableState('k2');
      if (t === undefined) throw new Error('no table k2');
      return (t.state as { config: Record<string, unknown> }).config;
    };
    const hands: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await r.request('k2', 'new-game', { game: 'killer-21', players: ['ana', 'ben', 'cy'], config: { variant: 'STANDARD' } }))
        .toMatchObject({ status: 'ok' });
      const c = config();
      expect(c).toMatchObject({ lives: 3, handSize: 3, variant: 'STANDARD' });
      expect((c.deck as Record<string, unknown>).KILLER).toBe(0);
      const t = app.tableState('k2');
      hands.push(JSON.stringify((t?.state as { hands: unknown }).hands));
    }
    expect(new Set(hands).size).toBe(3);
    // A key the request names is changed for that game; the others stay as configured.
    expect(await r.request('k2', 'new-game', { game: 'killer-21', players: ['ana', 'ben'], config: { lives: 2 } }))
      .toMatchObject({ status: 'ok' });
    expect(config()).toMatchObject({ lives: 2, handSize: 3 });
  });
});
