/**
 * Issue 18, item 1, the cases the issue names, one by one and deterministic (public-rule.test.ts walks long bot
 * games): the assembled tables (`assembleTables`, as `zaptable start` builds them) over stations driven by hand,
 * with the publishers' own payload builders, on a controlled clock.
 *
 * - Killer-21: a card laid on the pile in P's turn that P does not hold is refused `HIDDEN_REASON`, and neither
 *   the refusal nor the pile's health names it ("Killer-21 card R7-5" was on `health/<pile>`); a card P holds is
 *   played, and the pile's health names it once the public pile holds it.
 * - Killer-21 dealt at the table: a card touching the pile while hands are registered is named nowhere (it was in
 *   a `NOTICE REGISTERING` and on the pile's health).
 * - Zip-Zap: a card that would follow, laid on a seat pad by a player who does not hold it: `HIDDEN_REASON`, no
 *   card; a card that does not follow the face-up top: `DOES_NOT_FOLLOW` with the card (it was `HIDDEN_REASON`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buzzerPublisherOf } from '../../controller/app/buzzer-publisher.ts';
import { runtimePublisherOf } from '../../controller/app/publisher-adapter.ts';
import { SIMULATED_WEIGHTS, simulatedRegistry, simulatedUid } from '../../controller/app/simulated-items.ts';
import { assembleTables, PAD_PUBLISH_PERIOD_MS, type TableSet } from '../../controller/app/table-set.ts';
import { loadConfig } from '../../controller/config/index.ts';
import { NO_ERRORS, type SensorEvent, type StationHealth, type TableHardware } from '../../controller/hardware/interface.ts';
import { EventLog } from '../../controller/persistence/index.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { redValue } from '../../controller/rules/killer-21/cards.ts';
import type { Killer21OmniscientView } from '../../controller/rules/killer-21/index.ts';
import { follows } from '../../controller/rules/zip-zap/cards.ts';
import type { ZipZapOmniscientView } from '../../controller/rules/zip-zap/index.ts';
import type { Item } from '../../controller/runtime/registry/items.ts';
import type { ControllerTransport } from '../../controller/transport/index.ts';
import { at, fakeClock, manualScheduler } from '../runtime/fakes.ts';

/** Stations driven by hand: what a test emits is what the tables receive. */
class HandStations implements TableHardware {
  private readonly events = new Set<(e: SensorEvent) => void>();
  private readonly healths = new Set<(h: StationHealth) => void>();
  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  onEvent(listener: (e: SensorEvent) => void): () => void {
    this.events.add(listener);
    return () => this.events.delete(listener);
  }

  onHealth(listener: (h: StationHealth) => void): () => void {
    this.healths.add(listener);
    return () => this.healths.delete(listener);
  }

  health(): StationHealth[] {
    return [];
  }

  setLamp(): Promise<{ ok: true }> {
    return Promise.resolve({ ok: true });
  }

  emit(event: SensorEvent): void {
    for (const l of this.events) l(event);
  }

  online(station: string): void {
    const health: StationHealth = {
      station, kind: 'seat', online: true, firmware: '1.0.0', protocol: 1, port: 'hand', lastSeenMs: 0, errors: NO_ERRORS,
      clock: { offsetUs: 0, driftPpm: 0, uncertaintyUs: 100 },
    };
    for (const l of this.healths) l(health);
  }
}

interface Rig {
  readonly set: TableSet;
  readonly stations: HandStations;
  readonly published: { table: string; payload: unknown }[];
  readonly health: Map<string, StationHealth>;
  readonly clock: ReturnType<typeof fakeClock>;
  readonly advance: (ms: number) => void;
  readonly dispose: () => void;
}

async function rig(tables: string[]): Promise<Rig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-public-pile-'));
  const file = path.join(dir, 'zaptable.yaml');
  writeFileSync(file, ['tables:', ...tables, 'hardware: { kind: simulated, simulated: { bots: false } }',
    'dashboard: { enabled: false }', `storage: { directory: ${JSON.stringify(dir)} }`, ''].join('\n'));
  const loaded = loadConfig({ file });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('; '));
  const opened = EventLog.open(loaded.config.storage.database);
  if (!opened.ok) throw new Error(opened.message);
  const published: { table: string; payload: unknown }[] = [];
  const channel = (table: string) => ({
    publishState: (payload: unknown) => {
      published.push({ table, payload });
      return Promise.resolve();
    },
    publishEvent: (payload: unknown) => {
      published.push({ table, payload });
      return Promise.resolve();
    },
  });
  const transport = { table: channel } as unknown as ControllerTransport;
  const io = { transport, nowMs: () => 0, onError: () => undefined, epoch: 1 };
  const clock = fakeClock();
  const scheduler = manualScheduler(clock);
  const stations = new HandStations();
  const health = new Map<string, StationHealth>();
  const set = assembleTables({
    tables: loaded.config.tables, hardware: stations, log: opened.log, clock, scheduler,
    parts: { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS },
    publisher: runtimePublisherOf(io), buzzerPublisher: buzzerPublisherOf(io),
    publishHealth: (table, h) => {
      published.push({ table, payload: h });
      health.set(h.station, h);
    },
    say: () => undefined,
  });
  await set.start();
  return {
    set, stations, published, health, clock, advance: (ms) => { scheduler.advance(ms); },
    dispose: () => {
      set.stopRuntimes();
      opened.log.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let current: Rig | undefined;
afterEach(() => {
  current?.dispose();
  current = undefined;
});

/** A tag comes or goes a pad-publish period after the last (table-set.ts): each change is published at once. */
function tap(r: Rig, station: string, item: Item, kind: 'tag-arrived' | 'tag-left' = 'tag-arrived'): void {
  r.advance(PAD_PUBLISH_PERIOD_MS);
  r.stations.emit({ kind, station, uid: simulatedUid(item), time: at(r.clock.now) });
}

const k21Card = (card: string): Item => ({ kind: 'k21', card });
const everything = (r: Rig, from: number): string => JSON.stringify(r.published.slice(from).map((p) => p.payload));

describe('what the pile and the refusals say at the table', () => {
  it('Killer-21: a card the player on turn does not hold is named nowhere; a played card is named on the pile', async () => {
    current = await rig(['  - id: k', '    mode: killer-21', '    seats: [{ id: ana }, { id: ben }, { id: cy }]', '    seed: 5']);
    const r = current;
    r.stations.online('pile-1');
    const truth = (): Killer21OmniscientView => getEngine('killer-21').view(r.set.tableState('k')?.state, OMNISCIENT) as Killer21OmniscientView;
    const turn = truth().turn ?? '';
    const total = truth().total;
    const fits = (c: string): boolean => (redValue(c) ?? 0) + total <= 21 && !c.startsWith('KILLER');
    const other = Object.entries(truth().hands).find(([p]) => p !== turn)?.[1].find(fits);
    if (other === undefined) throw new Error('seed 5: another player holds a card that fits');
    const from = r.published.length;
    tap(r, 'pile-1', k21Card(other));
    const refused = r.published.slice(from).map((p) => p.payload as { type?: string }).find((e) => e.type === 'ACTION_REFUSED');
    expect(refused).toMatchObject({ action: 'play', code: 'HIDDEN_REASON', card: null, player: turn });
    expect(r.health.get('pile-1')?.pad).toEqual({ grams: null, tag: null, hidden: true });
    expect(everything(r, from)).not.toContain(other);

    // Taken back; the player on turn plays a card they hold: once the public pile holds it, the pile names it.
    tap(r, 'pile-1', k21Card(other), 'tag-left');
    const own = truth().hands[turn]?.find(fits);
    if (own === undefined) throw new Error('seed 5: the player on turn holds a card that fits');
    tap(r, 'pile-1', k21Card(own));
    expect(r.published.some((p) => (p.payload as { type?: string; card?: string }).type === 'CARD_PLAYED')).toBe(true);
    expect(r.health.get('pile-1')?.pad?.tag?.label).toBe(`Killer-21 card ${own}`);
  });

  it('Killer-21 dealt at the table: a card touching the pile while hands are registered is named nowhere', async () => {
    current = await rig(['  - id: k', '    mode: killer-21', '    seats: [{ id: ana }, { id: ben }]', '    rules: { dealing: TABLE }', '    seed: 5']);
    const r = current;
    r.stations.online('pile-1');
    expect((r.set.tableState('k')?.state as { phase?: string }).phase).toBe('DEALING');
    const from = r.published.length;
    tap(r, 'pile-1', k21Card('R7-5'));
    const notice = r.published.slice(from).map((p) => p.payload as { type?: string }).find((e) => e.type === 'NOTICE');
    expect(notice).toMatchObject({ code: 'REGISTERING' });
    expect(r.health.get('pile-1')?.pad).toEqual({ grams: null, tag: null, hidden: true });
    expect(everything(r, from)).not.toContain('R7-5');
  });

  it('Zip-Zap: a card that would follow but is not held is hidden; one that does not follow is named with its reason', async () => {
    current = await rig(['  - id: z', '    mode: zip-zap', '    seats: [{ id: ana }, { id: ben }]', '    seed: 7']);
    const r = current;
    for (const s of ['seat-1', 'seat-2', 'pile-1']) r.stations.online(s);
    const truth = (): ZipZapOmniscientView => getEngine('zip-zap').view(r.set.tableState('z')?.state, OMNISCIENT) as ZipZapOmniscientView;
    const top = truth().top?.card ?? '';
    const rejected = (from: number) => r.published.slice(from).map((p) => p.payload as { type?: string }).filter((e) => e.type === 'PLAY_REJECTED');
    // ben's card that follows the top, laid on ana's pad: refused for a reason only the hands know.
    const bens = truth().hands.ben?.find((c) => follows(top, c));
    if (bens === undefined) throw new Error('seed 7: ben holds a card that follows the start card');
    let from = r.published.length;
    tap(r, 'seat-1', { kind: 'card', card: bens });
    r.advance(100);
    expect(rejected(from)).toEqual([expect.objectContaining({ player: 'ana', code: 'HIDDEN_REASON', card: null })]);
    expect(everything(r, from)).not.toContain(`"${bens}"`);
    // ana's own card that does not follow: the table sees why; the card is named with the reason.
    const wrong = truth().hands.ana?.find((c) => !c.startsWith('Z') && !follows(top, c)) ?? '';
    from = r.published.length;
    tap(r, 'seat-1', { kind: 'card', card: wrong });
    r.advance(100);
    expect(rejected(from)).toEqual([expect.objectContaining({ player: 'ana', code: 'DOES_NOT_FOLLOW', card: wrong })]);
  });
});

describe('a station\'s pad on health/<station>', () => {
  const pileHealths = (r: Rig, from: number): StationHealth[] => r.published.slice(from)
    .map((p) => p.payload as StationHealth).filter((h) => h.station === 'pile-1' && h.pad !== undefined);

  it('a flood of readings is published once per period, the last reading always; an unchanged one not again', async () => {
    current = await rig(['  - id: k', '    mode: killer-21', '    seats: [{ id: ana }, { id: ben }]', '    seed: 5']);
    const r = current;
    r.stations.online('pile-1');
    const weigh = (grams: number): void => {
      r.stations.emit({ kind: 'weight-settled', station: 'pile-1', grams, time: at(r.clock.now) });
    };
    // 1,000 readings 1 ms apart (a station gone wrong: its load cell settles at most every 100 ms).
    let from = r.published.length;
    for (let i = 0; i < 1000; i++) {
      r.advance(1);
      weigh(10 + (i % 7));
    }
    r.advance(2 * PAD_PUBLISH_PERIOD_MS);
    const flood = pileHealths(r, from);
    expect(flood.length).toBeGreaterThanOrEqual(1000 / PAD_PUBLISH_PERIOD_MS);
    expect(flood.length).toBeLessThanOrEqual(1000 / PAD_PUBLISH_PERIOD_MS + 2);
    expect(flood.at(-1)?.pad?.grams).toBe(10 + (999 % 7));

    // A reading a period after the last is published at once; the same reading again, never.
    from = r.published.length;
    weigh(42);
    expect(pileHealths(r, from).map((h) => h.pad?.grams)).toEqual([42]);
    for (let i = 0; i < 5; i++) {
      r.advance(2 * PAD_PUBLISH_PERIOD_MS);
      weigh(42);
    }
    expect(pileHealths(r, from)).toHaveLength(1);
  });
});
