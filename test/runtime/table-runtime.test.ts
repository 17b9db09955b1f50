import { describe, expect, it } from 'vitest';
import type { SensorEvent } from '../../controller/hardware/interface.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import type { ZappView } from '../../controller/rules/zapp-zerapp/index.ts';
import { ALL_CARD_IDS, type ZipZapOmniscientView, type ZipZapState } from '../../controller/rules/zip-zap/index.ts';
import { zappTable } from '../../controller/runtime/zapp-zerapp/table.ts';
import { zipTable } from '../../controller/runtime/zip-zap/table.ts';
import { enrollTag, EMPTY_REGISTRY, type TagRegistry } from '../../controller/runtime/registry/tag-registry.ts';
import { TableRuntime } from '../../controller/runtime/table-runtime.ts';
import { at, fakeClock, manualScheduler, memoryLamps, memoryLog, memoryPublisher } from './fakes.ts';

const barrelUid = (k: number): string => `BA0000${k.toString(16).padStart(2, '0').toUpperCase()}`;
const cardUid = (card: string): string => `CA${Array.from(card).map((c) => c.charCodeAt(0).toString(16)).join('').padEnd(6, '0').toUpperCase()}`.slice(0, 8);

function registry(): TagRegistry {
  let r = EMPTY_REGISTRY;
  for (let k = 1; k <= 13; k++) {
    const e = enrollTag(r, barrelUid(k), { kind: 'barrel', value: k });
    if (e.ok) r = e.registry;
  }
  for (const card of ALL_CARD_IDS) {
    const e = enrollTag(r, cardUid(card), card.startsWith('Z') ? { kind: 'zap', card } : { kind: 'card', card });
    if (!e.ok) throw new Error(`${card}: ${e.message}`);
    r = e.registry;
  }
  return r;
}

/** A sensor event without its time (the rig stamps it); distributes over the union. */
type Untimed<E = SensorEvent> = E extends SensorEvent ? Omit<E, 'time'> : never;

function rig(game: 'zapp-zerapp' | 'zip-zap', players: string[], rules: Record<string, unknown> = {}, seed = 1) {
  const clock = fakeClock();
  const scheduler = manualScheduler(clock);
  const log = memoryLog();
  const publisher = memoryPublisher();
  const lamps = memoryLamps();
  const seatOfStation = Object.fromEntries(players.map((p, i) => [`seat-${i + 1}`, p]));
  const reg = registry();
  const tableGame = game === 'zapp-zerapp'
    ? zappTable({ seatOfStation, registry: reg, minBarrelGrams: 5 })
    : zipTable({ seatOfStation, registry: reg, pileStation: 'pile' });
  const runtime = new TableRuntime(
    { tableId: 't1', game, players, seatOfStation, rules, nextSeed: () => seed, arbitrationWindowMs: 30, tableGame },
    { log, publisher, lamps, scheduler, clock },
  );
  const send = (e: Untimed): void => {
    clock.now += 1000;
    runtime.handleSensor({ ...e, time: at(clock.now) });
  };
  return { clock, scheduler, log, publisher, lamps, runtime, send };
}

describe('Zapp Zerapp table runtime', () => {
  it('places barrels from the pads, reveals by itself, and never publishes a number before the reveal', () => {
    const t = rig('zapp-zerapp', ['red', 'green']);
    t.runtime.start();
    expect(t.runtime.requestAction({ type: 'enter-dice', d1: 3, d2: 4 }, 'referee', false)).toMatchObject({ ok: true });
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: barrelUid(5) });
    // The tag alone is not a placement: the weight must settle with the barrel on the pad.
    expect((t.runtime.publicView() as ZappView).placed.red).toBe(false);
    t.send({ kind: 'weight-settled', station: 'seat-1', grams: 42 });
    const afterFirst = t.runtime.publicView() as ZappView;
    expect(afterFirst.placed.red).toBe(true);
    expect(afterFirst.reveal).toBeNull();
    expect(JSON.stringify(t.publisher.last())).not.toContain('"secret"');
    expect(t.lamps.shown['seat-1']).toBe('on');
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: barrelUid(9) });
    t.send({ kind: 'weight-settled', station: 'seat-2', grams: 60 });
    const revealed = t.runtime.publicView() as ZappView;
    expect(revealed.phase).toBe('MOVE');
    expect(revealed.moveQueue).toEqual(['red']);
    expect(t.publisher.published).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'BARRELS_REVEALED' })]));
    // Every sensor event was logged, and each action after the sensor event that caused it.
    const kinds = t.log.rows.filter((r) => r.kind === 'sensor' || r.kind === 'action').map((r) => (r.kind === 'action' ? r.action.type : r.kind));
    expect(kinds).toEqual(['enter-dice', 'sensor', 'sensor', 'place', 'sensor', 'sensor', 'place', 'reveal']);
  });

  it('reports a barrel lifted after committing and a second barrel on the pad, changing nothing else', () => {
    const t = rig('zapp-zerapp', ['red', 'green']);
    t.runtime.start();
    t.runtime.requestAction({ type: 'enter-dice', d1: 6, d2: 6 }, 'referee', false);
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: barrelUid(3) });
    t.send({ kind: 'weight-settled', station: 'seat-1', grams: 30 });
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: barrelUid(4) });
    t.send({ kind: 'tag-left', station: 'seat-1', uid: barrelUid(3) });
    const view = getEngine('zapp-zerapp').view(t.runtime.engineState(), OMNISCIENT) as ZappView;
    expect(view.violations.map((v) => v.kind)).toEqual(['TWO_BARRELS_PLACED', 'LIFTED_AFTER_COMMIT']);
    expect(view.secret?.placed.red).toBe(3);
  });

  it('lets the roller roll with the seat button only once the pads are clear; undo rebuilds the game', () => {
    const t = rig('zapp-zerapp', ['red', 'green']);
    t.runtime.start();
    t.send({ kind: 'tag-arrived', station: 'seat-2', uid: barrelUid(2) });
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    expect((t.runtime.publicView() as ZappView).phase).toBe('ROLL');
    expect(t.publisher.published).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'NOTICE', code: 'PADS_NOT_CLEAR' })]));
    t.send({ kind: 'tag-left', station: 'seat-2', uid: barrelUid(2) });
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    expect((t.runtime.publicView() as ZappView).phase).toBe('SELECT');
    expect(t.runtime.undo('referee', 'misroll')).toMatchObject({ ok: true });
    expect((t.runtime.publicView() as ZappView).phase).toBe('ROLL');
    expect(t.publisher.published).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'ACTION_UNDONE' })]));
    expect(t.runtime.undo('referee')).toMatchObject({ ok: false, code: 'NOTHING_TO_UNDO' });
  });
});

/** A seed whose first start card can be followed by both A and B, for the simultaneous-play test. */
function seedWithTwoFollowers(): { seed: number; top: string; a: string; b: string } {
  const engine = getEngine('zip-zap');
  for (let seed = 1; seed < 2000; seed++) {
    const setup = engine.setup({ players: ['A', 'B'] }, seed);
    if (!setup.ok) continue;
    const actions = engine.legalActions(setup.state) as { type: string; player?: string; card?: string }[];
    const a = actions.find((x) => x.type === 'play' && x.player === 'A' && !x.card?.startsWith('Z'));
    const b = actions.find((x) => x.type === 'play' && x.player === 'B' && !x.card?.startsWith('Z'));
    const top = (engine.view(setup.state, OMNISCIENT) as ZipZapOmniscientView).top?.card;
    if (a?.card && b?.card && top && a.card.slice(1) === b.card.slice(1)) return { seed, top, a: a.card, b: b.card };
  }
  throw new Error('no seed found');
}

describe('Zip-Zap table runtime', () => {
  it('orders near-simultaneous plays by device time, not arrival: the first card down counts', () => {
    const found = seedWithTwoFollowers();
    const t = rig('zip-zap', ['A', 'B'], {}, found.seed);
    t.runtime.start();
    const now = t.clock.now;
    // A's card arrives first at the controller but B's landed 5 ms earlier by the stations' clocks.
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-1', uid: cardUid(found.a), time: at(now + 10_000) });
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-2', uid: cardUid(found.b), time: at(now + 5_000) });
    expect((getEngine('zip-zap').view(t.runtime.engineState(), OMNISCIENT) as ZipZapOmniscientView).top?.card).toBe(found.top);
    t.scheduler.advance(30);
    const state = t.runtime.engineState() as ZipZapState;
    expect(state.pile.at(-1)).toMatchObject({ card: found.b, by: 'B' });
    expect(state.hands.A).toContain(found.a);
    expect(t.publisher.published).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'PLAY_REJECTED', player: 'A', card: null })]));
    // A's lamp tells them to take the card back, then shows the game again.
    expect(t.lamps.shown['seat-1']).toBe('error');
    t.scheduler.advance(2500);
    expect(t.lamps.shown['seat-1']).toBe('off');
  });

  it('sends plays that land within their combined uncertainty to the referee as a tie, with the figures', () => {
    const found = seedWithTwoFollowers();
    const t = rig('zip-zap', ['A', 'B'], {}, found.seed);
    t.runtime.start();
    const now = t.clock.now;
    // 50 µs apart on two stations, each ±100 µs: the sensors cannot tell which came first.
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-1', uid: cardUid(found.a), time: at(now + 10_050) });
    t.runtime.handleSensor({ kind: 'tag-arrived', station: 'seat-2', uid: cardUid(found.b), time: at(now + 10_000) });
    t.scheduler.advance(30);
    // Not applied in some order: the game waits for a human, the top card is still the start card.
    const state = t.runtime.engineState() as ZipZapState;
    expect(state.tie?.contenders.map((c) => c.player)).toEqual(['B', 'A']);
    expect(state.pile.at(-1)?.card).toBe(found.top);
    const tie = t.publisher.published.find((e) => (e as { type?: string }).type === 'TIE_PENDING') as Record<string, unknown> | undefined;
    // Game times are wall-clock ms (~1.7e12): their last bit is 0.24 µs.
    expect(tie).toMatchObject({
      separationMs: expect.closeTo(0.05, 3) as unknown, combinedUncertaintyMs: expect.closeTo(0.2, 3) as unknown,
    });
    // Published with the cards: both lie face up on the pile while the referee rules (a spectator sees them).
    expect((tie?.contenders as { player: string; card: string }[]).map((c) => [c.player, c.card])).toEqual([['B', found.b], ['A', found.a]]);
    expect(t.publisher.published.some((e) => (e as { code?: string }).code === 'PLAY_TIE')).toBe(false);
    // The referee rules; the game goes on from there.
    expect(t.runtime.requestAction({ type: 'resolve-tie', first: 'A' }, 'referee', true)).toMatchObject({ ok: true });
    expect((t.runtime.engineState() as ZipZapState).pile.at(-1)).toMatchObject({ card: found.a, by: 'A' });
  });

  it('gives each play the interval its sensor allows: tag windows tie, slaps order, across batches too', () => {
    const found = seedWithTwoFollowers();
    const tagged = (uid: string, station: string, readUs: number, slapUs?: number): SensorEvent => ({
      kind: 'tag-arrived', station, uid, time: at(readUs, 25_000),
      ...(slapUs === undefined ? {} : { slap: { seq: 1, time: at(slapUs, 80) } }),
    });
    // Tag reads 10 ms apart, each arrived within the 25 ms before its read: the windows overlap.
    const windows = rig('zip-zap', ['A', 'B'], {}, found.seed);
    windows.runtime.start();
    const t0 = windows.clock.now;
    windows.runtime.handleSensor(tagged(cardUid(found.a), 'seat-1', t0 + 20_000));
    windows.runtime.handleSensor(tagged(cardUid(found.b), 'seat-2', t0 + 30_000));
    windows.scheduler.advance(30);
    const tie = (windows.runtime.engineState() as ZipZapState).tie;
    expect(tie?.contenders.map((c) => [c.player, c.timedBy])).toEqual([['A', 'tag'], ['B', 'tag']]);
    const logged = windows.log.rows.find((r) => r.kind === 'action' && r.action.type === 'plays');
    expect(JSON.stringify(logged)).toContain('"atEarliest"');
    // The same cards dated by their slaps 1 ms apart: ordered, B's card goes back.
    const slaps = rig('zip-zap', ['A', 'B'], {}, found.seed);
    slaps.runtime.start();
    const s0 = slaps.clock.now;
    slaps.runtime.handleSensor(tagged(cardUid(found.a), 'seat-1', s0 + 20_000, s0 + 9_000));
    slaps.runtime.handleSensor(tagged(cardUid(found.b), 'seat-2', s0 + 30_000, s0 + 10_000));
    slaps.scheduler.advance(30);
    const after = slaps.runtime.engineState() as ZipZapState;
    expect(after.tie).toBeNull();
    expect(after.pile.at(-1)).toMatchObject({ card: found.a, by: 'A' });
    // Landed at the slap, on the game clock (wall ms) like every other time: not at the read 11 ms later.
    expect(after.pile.at(-1)?.at).toBeCloseTo(1_700_000_000_000 + (s0 + 9_000) / 1000, 0);
    // A read that comes after the first play's batch was applied still ties with it.
    const late = rig('zip-zap', ['A', 'B'], {}, found.seed);
    late.runtime.start();
    const l0 = late.clock.now;
    late.runtime.handleSensor(tagged(cardUid(found.a), 'seat-1', l0 + 20_000));
    late.scheduler.advance(30);
    expect((late.runtime.engineState() as ZipZapState).pile.at(-1)?.card).toBe(found.a);
    late.runtime.handleSensor(tagged(cardUid(found.b), 'seat-2', l0 + 30_000));
    late.scheduler.advance(30);
    expect((late.runtime.engineState() as ZipZapState).tie?.contenders).toHaveLength(2);
  });

  it('turns the seat button into a ZAP call, checked by the engine', () => {
    const found = seedWithTwoFollowers();
    const t = rig('zip-zap', ['A', 'B'], {}, found.seed);
    t.runtime.start();
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    t.scheduler.advance(30);
    // Nobody has played a number card yet (the top was flipped), so the ZAP is refused and changes nothing.
    expect(t.publisher.published).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'PLAY_REJECTED', code: 'ZAP_NOT_ON_OWN_CARD' })]));
    t.send({ kind: 'tag-arrived', station: 'seat-1', uid: cardUid(found.a) });
    t.scheduler.advance(30);
    t.send({ kind: 'button-pressed', station: 'seat-1', button: 'zap' });
    t.scheduler.advance(30);
    const state = t.runtime.engineState() as ZipZapState;
    expect(state.pile.at(-1)).toMatchObject({ kind: 'ZAP', by: 'A' });
    // The refused ZAP's error flash ends; then A's lamp shows that A is in control of the pause.
    t.scheduler.advance(2500);
    expect(t.lamps.shown['seat-1']).toBe('on');
  });
});
