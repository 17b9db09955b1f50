/**
 * Issue 18, item 1: the public view is exactly what a spectator standing at the table can see
 * (controller/rules/common/spectator.ts, docs/mqtt.md "What is public"). Long bot games of every game run on the
 * real table runtime over simulated stations (the real serial driver, the demo's bots), with a "clumsy player"
 * who now and then lays a random card — someone else's, one from the deck, one that cannot follow — on the pile
 * or on a seat pad, so the refusals the issue names happen many times. Every state, event and station health
 * payload is checked **when it is published**, against the omniscient truth of that moment:
 *
 * - no card that lies hidden at that moment (in a hand, the deck, the reserve, unseen) appears in it, except a
 *   card a spectator saw face up: named by a refusal whose public reason rests on it, or a tie's contender;
 * - every refusal code published is derivable from public facts: `HIDDEN_REASON`, a code the test derives itself
 *   from the card and the public state (does not follow the public top card, passes the public total, not a red
 *   0), or a code that never depends on a hand or barrel; a hand-dependent code never leaves;
 * - a pile station's reading names a card only while the public pile holds it; a seat pad's reading never names
 *   a card, nor a barrel before the reveal.
 *
 * The checks here are written from the rule, not from spectator.ts, so they fail when the code breaks it: with
 * the previous behaviour (before the one rule) they fail on the pile health naming a refused card.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stationHardwareOf } from '../../controller/app/station-hardware.ts';
import { runtimePublisherOf } from '../../controller/app/publisher-adapter.ts';
import { SIMULATED_WEIGHTS, simulatedRegistry } from '../../controller/app/simulated-items.ts';
import { startBots } from '../../controller/app/simulated-bots.ts';
import { runSimulatorOp } from '../../controller/app/simulator.ts';
import { assembleTables, type TableSet } from '../../controller/app/table-set.ts';
import { buzzerPublisherOf } from '../../controller/app/buzzer-publisher.ts';
import { loadConfig } from '../../controller/config/index.ts';
import { systemClock, type StationHealth } from '../../controller/hardware/interface.ts';
import type { SimulatedTable } from '../../controller/hardware/simulated/index.ts';
import { EventLog } from '../../controller/persistence/index.ts';
import { OMNISCIENT } from '../../controller/rules/common/viewer.ts';
import { getEngine } from '../../controller/rules/games.ts';
import { isRedZero, redValue } from '../../controller/rules/killer-21/cards.ts';
import type { Killer21OmniscientView } from '../../controller/rules/killer-21/index.ts';
import type { ZappState } from '../../controller/rules/zapp-zerapp/index.ts';
import { follows } from '../../controller/rules/zip-zap/cards.ts';
import type { ZipZapOmniscientView } from '../../controller/rules/zip-zap/index.ts';
import { realScheduler } from '../../controller/runtime/ports.ts';
import type { Item } from '../../controller/runtime/registry/items.ts';
import type { ControllerTransport } from '../../controller/transport/index.ts';

/** Codes whose reason is a hand, a registered hand or a hidden barrel: never published (docs/mqtt.md). */
const HIDDEN_CODES = new Set([
  'CARD_NOT_IN_HAND', 'CAN_PLAY', 'SOMEONE_CAN_PLAY', 'BAD_HAND', 'NOT_IN_RESERVE',
  'BARREL_PLACED_BY_OTHER', 'BARREL_HELD_BY_OTHER', 'NOT_HOLDING', 'BARREL_NOT_ON_MOUNTAIN',
]);

interface Table {
  readonly id: string;
  readonly game: 'zip-zap' | 'killer-21' | 'zapp-zerapp';
  readonly seats: readonly string[];
  readonly rules?: string;
}

const TABLES: readonly Table[] = [
  { id: 'zz', game: 'zip-zap', seats: ['ana', 'ben', 'cy'] },
  { id: 'k21', game: 'killer-21', seats: ['ana', 'ben', 'cy'], rules: '{ lives: 2, handSize: 4, killerWindowMs: 600 }' },
  { id: 'k21deal', game: 'killer-21', seats: ['ana', 'ben', 'cy'], rules: '{ dealing: TABLE, lives: 2, handSize: 3, killerWindowMs: 600 }' },
  { id: 'zapp', game: 'zapp-zerapp', seats: ['ana', 'ben', 'cy', 'dev'] },
];

/** Every string leaf of a payload, cut into id-like tokens (`R4`, `R7-5`, `KILLER-1`, `Z(A)`). */
function tokens(payload: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof payload === 'string') {
    for (const t of payload.split(/[^A-Za-z0-9()-]+/)) if (t !== '') out.add(t);
  } else if (Array.isArray(payload)) {
    for (const v of payload) tokens(v, out);
  } else if (typeof payload === 'object' && payload !== null) {
    for (const v of Object.values(payload)) tokens(v, out);
  }
  return out;
}

/** The cards a spectator cannot see now, from the omniscient truth. */
function hiddenCards(game: Table['game'], state: unknown): Set<string> {
  const engine = getEngine(game);
  if (game === 'zip-zap') {
    const v = engine.view(state, OMNISCIENT) as ZipZapOmniscientView;
    return new Set([...Object.values(v.hands).flat(), ...v.reserve, ...v.unseen]);
  }
  if (game === 'killer-21') {
    const v = engine.view(state, OMNISCIENT) as Killer21OmniscientView;
    return new Set([...Object.values(v.hands).flat(), ...v.deck, ...(v.hidden?.cards ?? [])]);
  }
  return new Set();
}

/** What the walk saw, per table. */
interface Walk {
  payloads: number;
  readonly refusals: Map<string, number>;
  namedRefusals: number;
  pileNamed: number;
  pileHidden: number;
  readonly violations: string[];
}

/** Follows one table's public stream and checks each payload against the truth of the moment. */
class Walker {
  readonly walk: Walk = { payloads: 0, refusals: new Map(), namedRefusals: 0, pileNamed: 0, pileHidden: 0, violations: [] };
  /** Cards a spectator saw face up (a refused card with a public reason about it, a tie's contender). */
  private readonly sighted = new Set<string>();
  /** The public top card (Zip-Zap) and total (Killer-21), from the public stream only. */
  private top: string | null = null;
  private total = 0;

  constructor(
    private readonly table: Table, private readonly truth: () => unknown, private readonly pileStation: string | undefined,
  ) {}

  private fail(what: string, payload: unknown): void {
    if (this.walk.violations.length < 20) this.walk.violations.push(`${this.table.id}: ${what}: ${JSON.stringify(payload).slice(0, 400)}`);
  }

  /** A card named by a public payload must not be hidden now, unless a spectator saw it. */
  private noHiddenCard(payload: unknown): void {
    const hidden = hiddenCards(this.table.game, this.truth());
    for (const t of tokens(payload)) if (hidden.has(t) && !this.sighted.has(t)) this.fail(`names hidden card ${t}`, payload);
  }

  state(view: Record<string, unknown>): void {
    this.walk.payloads++;
    if (this.table.game === 'zip-zap') {
      const top = view.top as { card?: string } | null;
      this.top = top?.card ?? null;
      const tie = view.tie as { contenders: { card?: string | null }[] } | null;
      for (const c of tie?.contenders ?? []) if (typeof c.card === 'string') this.sighted.add(c.card);
    }
    if (this.table.game === 'killer-21' && typeof view.total === 'number') this.total = view.total;
    this.noHiddenCard(view);
  }

  event(event: Record<string, unknown>): void {
    this.walk.payloads++;
    const type = String(event.type);
    if (type === 'ACTION_REFUSED' || type === 'PLAY_REJECTED') this.refusal(event);
    if (type === 'TIE_PENDING') {
      for (const c of event.contenders as { card?: string | null }[]) if (typeof c.card === 'string') this.sighted.add(c.card);
    }
    this.noHiddenCard(event);
    // The public facts the next refusals are judged by, from the public stream only.
    if ((type === 'CARD_PLAYED' || type === 'ZAP_PLAYED' || type === 'CARD_FLIPPED') && typeof event.card === 'string') this.top = event.card;
    if (type === 'CARD_PLAYED' && typeof event.total === 'number') this.total = event.total;
    if (type === 'TOTAL_RESET') this.total = 0;
  }

  private refusal(event: Record<string, unknown>): void {
    const code = String(event.code);
    this.walk.refusals.set(code, (this.walk.refusals.get(code) ?? 0) + 1);
    if (HIDDEN_CODES.has(code)) this.fail(`publishes hand-dependent code ${code}`, event);
    const card = typeof event.card === 'string' ? event.card : null;
    if (code === 'HIDDEN_REASON' && card !== null) this.fail('names the card of a hidden refusal', event);
    if (card === null) return;
    // A named card: the public reason must follow from the card and the public state alone.
    const derived = code === 'DOES_NOT_FOLLOW' ? this.top !== null && !follows(this.top, card)
      : code === 'OVER_21' ? (redValue(card) ?? 0) + this.total > 21
        : code === 'NOT_A_ZERO' ? !isRedZero(card)
          : code === 'UNKNOWN_CARD' ? !hiddenCards(this.table.game, this.truth()).has(card) : false;
    if (!derived) this.fail(`names ${card} with ${code}, not derivable from the public top ${String(this.top)} / total ${this.total}`, event);
    this.walk.namedRefusals++;
    this.sighted.add(card);
  }

  health(health: StationHealth): void {
    this.walk.payloads++;
    const pad = health.pad;
    if (pad === undefined) return;
    const label = pad.tag?.label ?? '';
    const state = this.truth();
    if (health.station === this.pileStation) {
      if (pad.hidden === true) this.walk.pileHidden++;
      else if (pad.tag !== null) {
        this.walk.pileNamed++;
        const onPile = new Set(((state as { pile?: { card: string }[] }).pile ?? []).map((r) => r.card));
        const card = [...tokens(label)].find((t) => hiddenCards(this.table.game, state).has(t) || onPile.has(t));
        if (card !== undefined && !onPile.has(card)) this.fail(`pile reading names ${card}, which the public pile does not hold`, health);
      }
    } else if (pad.tag !== null) {
      // A seat pad: never a card (it may go back to a hand), a barrel only once the reveal showed it.
      if (pad.tag.kind === 'card' || pad.tag.kind === 'zap' || pad.tag.kind === 'k21') this.fail('a seat pad names a card', health);
      if (pad.tag.kind === 'barrel') {
        const z = state as ZappState;
        const revealed = new Set((z.reveal?.results ?? []).map((r) => `barrel ${r.barrel}`));
        if (z.phase !== 'DONE' && !(z.phase === 'MOVE' && [...revealed].some((r) => label.includes(r)))) this.fail('a seat pad names an unrevealed barrel', health);
      }
    }
    this.noHiddenCard(pad);
  }
}

/** The clumsy player: a random card of the deck on the pile or a random seat pad, every so often. */
type ClumsyTable = { id: string; pileStation?: string; seats: { station: string }[] };

/** Every card in a hand, and for Killer-21 the top of the deck. */
function cardsAround(truth: { game: string; state: unknown }): string[] {
  if (truth.game === 'zip-zap') return Object.values((getEngine('zip-zap').view(truth.state, OMNISCIENT) as ZipZapOmniscientView).hands).flat();
  const k21 = getEngine('killer-21').view(truth.state, OMNISCIENT) as Killer21OmniscientView;
  return [...Object.values(k21.hands).flat(), ...k21.deck.slice(0, 5)];
}

function clumsy(simulated: SimulatedTable, tables: TableSet, config: readonly ClumsyTable[]): () => void {
  let n = 0;
  const timer = setInterval(() => {
    const table = config[n % config.length];
    n++;
    if (table === undefined) return;
    const truth = tables.tableState(table.id);
    if (truth === undefined || truth.game === 'zapp-zerapp') return;
    const all = cardsAround(truth);
    const onSeat = n % 3 === 0;
    const seat = Math.floor(n / 3) % table.seats.length;
    // On a Zip-Zap seat pad, now and then a card that would follow the top but is another player's: refused for
    // a reason only the hands know (the probe the issue describes, here done by a clumsy hand).
    const zz = truth.game === 'zip-zap' ? getEngine('zip-zap').view(truth.state, OMNISCIENT) as ZipZapOmniscientView : undefined;
    const top = zz?.top?.card;
    const mine = zz === undefined ? [] : zz.hands[zz.players[seat]?.id ?? ''] ?? [];
    const probe = onSeat && top !== undefined ? all.find((c) => follows(top, c) && !mine.includes(c)) : undefined;
    const card = probe ?? all[(n * 7919) % Math.max(1, all.length)];
    if (card === undefined) return;
    const item: Item = truth.game === 'killer-21' ? { kind: 'k21', card } : card.startsWith('Z') ? { kind: 'zap', card } : { kind: 'card', card };
    const station = onSeat ? table.seats[seat]?.station : table.pileStation;
    if (station !== undefined) runSimulatorOp(simulated, station, 'tap', item);
  }, 90);
  return () => {
    clearInterval(timer);
  };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('the public view is what a spectator at the table sees', () => {
  it('holds for every state, event and health payload of long bot games of every game', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-public-rule-'));
    const file = path.join(dir, 'zaptable.yaml');
    writeFileSync(file, [
      'tables:',
      ...TABLES.flatMap((t) => [
        `  - id: ${t.id}`, `    mode: ${t.game}`, `    seats: [${t.seats.map((s) => `{ id: ${s} }`).join(', ')}]`,
        ...(t.rules === undefined ? [] : [`    rules: ${t.rules}`]), '    seed: 11',
      ]),
      'hardware: { kind: simulated, simulated: { speed: 12 } }',
      'dashboard: { enabled: false }',
      `storage: { directory: ${JSON.stringify(dir)} }`,
      '',
    ].join('\n'));
    const loaded = loadConfig({ file });
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    const config = loaded.config;
    const opened = EventLog.open(config.storage.database);
    if (!opened.ok) throw new Error(opened.message);
    const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined };
    const { hardware, simulated } = stationHardwareOf(config, { logger: silent });
    if (simulated === undefined) throw new Error('no simulated table');

    const walkers = new Map<string, Walker>();
    // The publishers' own payload builders (publicStateOf, publicEventOf, tableEventOf) behind a transport that
    // hands each payload to the walker at once, while the truth is still that of the moment it was published.
    const channel = (table: string) => ({
      publishState: (payload: { view?: unknown }) => {
        if (payload.view !== undefined) walkers.get(table)?.state(payload.view as Record<string, unknown>);
        return Promise.resolve();
      },
      publishEvent: (event: Record<string, unknown>) => {
        walkers.get(table)?.event(event);
        return Promise.resolve();
      },
    });
    const transport = { table: channel } as unknown as ControllerTransport;
    const io = { transport, nowMs: () => Date.now(), onError: (e: unknown) => {
      throw e;
    }, epoch: Date.now() };
    const set = assembleTables({
      tables: config.tables, hardware, log: opened.log, clock: systemClock, scheduler: realScheduler,
      parts: { registry: simulatedRegistry(), weights: SIMULATED_WEIGHTS },
      publisher: runtimePublisherOf(io), buzzerPublisher: buzzerPublisherOf(io),
      publishHealth: (tableId, health) => walkers.get(tableId)?.health(health),
      say: () => undefined,
    });
    for (const t of config.tables) {
      const game = TABLES.find((x) => x.id === t.id);
      if (game) walkers.set(t.id, new Walker(game, () => set.tableState(t.id)?.state, t.pileStation));
    }
    await set.start();
    const bots = startBots(config, simulated, set);
    const stopClumsy = clumsy(simulated, set, config.tables);
    cleanup = () => {
      stopClumsy();
      for (const b of bots) b.stop();
      set.stopRuntimes();
      void hardware.stop();
      opened.log.close();
      rmSync(dir, { recursive: true, force: true });
    };

    // Long enough that every refusal the issue names happens many times on a loaded machine (2 cores, 8 helpers).
    const enough = (): boolean => [...walkers.values()].every((w) => w.walk.payloads > 400)
      && (walkers.get('zz')?.walk.namedRefusals ?? 0) >= 3
      && (walkers.get('k21')?.walk.refusals.get('HIDDEN_REASON') ?? 0) >= 3;
    const end = Date.now() + 60_000;
    while (!enough() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 250));
    stopClumsy();

    const summary = Object.fromEntries([...walkers].map(([id, w]) => [id, {
      payloads: w.walk.payloads, refusals: Object.fromEntries(w.walk.refusals), named: w.walk.namedRefusals,
      pileNamed: w.walk.pileNamed, pileHidden: w.walk.pileHidden,
    }]));
    console.log(JSON.stringify(summary));
    expect([...walkers.values()].flatMap((w) => w.walk.violations)).toEqual([]);
    // The walk saw what it is about: refusals of both kinds, and the pile both named and withheld.
    const zz = walkers.get('zz')?.walk;
    const k21 = walkers.get('k21')?.walk;
    // Zip-Zap's hidden refusals are not asserted here: they come only from a following card on a seat pad whose
    // player does not hold it, and whether one lands while it still follows depends on the bots' pace (at load < 2
    // the race moved the top on first in 4 runs of 4: DOES_NOT_FOLLOW, public). public-pile.test.ts checks that
    // case deterministically; any hidden refusal the walk does see is still checked above.
    expect(zz?.namedRefusals ?? 0).toBeGreaterThan(0);
    expect(k21?.refusals.get('HIDDEN_REASON') ?? 0).toBeGreaterThan(0);
    for (const w of [zz, k21]) {
      expect(w?.pileNamed ?? 0).toBeGreaterThan(0);
      expect(w?.pileHidden ?? 0).toBeGreaterThan(0);
    }
    for (const w of walkers.values()) expect(w.walk.payloads).toBeGreaterThan(100);
  }, 120_000);
});
