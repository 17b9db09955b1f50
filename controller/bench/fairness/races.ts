/**
 * One race of the fairness benchmark, run on the assembled controller (table-rig.ts) and judged against the
 * true landing times: two happenings a known time apart, made physically (a card tapped on a pad, a button
 * pressed) at exact virtual times, read by the simulated stations, sent as protocol lines through the real
 * serial driver, decided by the real table.
 *
 * - `zip-zap`: two players each tap a card that is legal on the top card (a seed where both can follow): the
 *   Zip-Zap runtime and engine decide (the first card down counts; overlapping intervals are a tie for the
 *   referee). The decision is read from the engine state: the first card laid on the start card, or the tie.
 * - `buzzer`: two contestants press after the buzzers are armed: the buzzer runtime's WINNER or TIE.
 * - `pad`: two cards on one pad (one player): no game decides between them, so the decision is the order
 *   of the two landing intervals the tables received (overlap: a tie), the comparison every game race makes.
 * - `killer` / `deadline`: Killer-21's red-0 race, the zero against the Killer's landing or against the
 *   window's deadline: the Killer-21 runtime and engine decide (killer-race.ts).
 *
 * Every happening's delivered event is also checked: its landing interval (runtime/pads/landing-interval.ts,
 * the one the engines take) must hold the true time. An event that never arrived is a lost happening.
 */
import type { SensorEvent } from '../../hardware/interface.ts';
import { OMNISCIENT } from '../../rules/common/viewer.ts';
import { getEngine } from '../../rules/games.ts';
import type { ZipZapOmniscientView, ZipZapState } from '../../rules/zip-zap/index.ts';
import { simulatedUid } from '../../app/simulated-items.ts';
import { landingOf, type Landing } from '../../runtime/pads/landing-interval.ts';
import type { InputOutcome } from '../../runtime/table-runtime.ts';
import { KILLER_WINDOW_MS, killerDecision, type KillerSeed } from './killer-race.ts';
import { BUZZER_TABLE, KILLER_TABLE, ZIP_TABLES, type Resting, type TableRig } from './table-rig.ts';

export type GamePath = 'zip-zap' | 'buzzer' | 'pad' | 'killer' | 'deadline';
export type Sensor = 'slap' | 'tag' | 'button';

/** What one race is: a cell (path, sensor, resting cards) and a separation. */
export interface RaceSpec {
  readonly path: GamePath;
  readonly sensor: Sensor;
  readonly resting: Resting;
  readonly separationUs: number;
  /** Which side goes first (0: the first seat/contestant/card). */
  readonly firstSide: 0 | 1;
  /** Each side's physics: tag power-up and interrupt stamp delay, µs (drawn by the world). */
  readonly physics: readonly [HappeningDraw, HappeningDraw];
  /** Which seed of the Zip-Zap race seeds (index). */
  readonly seedIndex: number;
}

export interface HappeningDraw {
  readonly powerUpUs: number;
  readonly stampDelayUs: number;
}

/** What the table decided, against the truth. */
export type Verdict = 'right' | 'tie' | 'wrong' | 'unanswered';

/** One happening against its delivered event: how far its true time lies outside the landing interval (µs, ≤ 0: inside). */
export type SideResult = { readonly arrived: true; readonly missUs: number } | { readonly arrived: false };

export interface RaceResult {
  readonly verdict: Verdict;
  /** Per side (as in the spec). */
  readonly sides: readonly [SideResult, SideResult];
}

/** The deals the races start from: Zip-Zap's and Killer-21's. */
export interface RaceSeeds {
  readonly zip: readonly RaceSeed[];
  readonly killer: readonly KillerSeed[];
}

/** A seed whose start card both A and B can follow with a number card, and those cards. */
interface RaceSeed {
  readonly seed: number;
  readonly top: string;
  readonly cards: readonly [string, string];
}

/** Seeds where A and B can both follow the start card (searched once; deterministic). */
export function findRaceSeeds(count: number): RaceSeed[] {
  const engine = getEngine('zip-zap');
  const found: RaceSeed[] = [];
  for (let seed = 1; seed < 100_000 && found.length < count; seed++) {
    const setup = engine.setup({ players: ['a', 'b'], stuckDetection: 'HUMAN' } as Parameters<typeof engine.setup>[0], seed);
    if (!setup.ok) continue;
    const actions = engine.legalActions(setup.state) as { type: string; player?: string; card?: string }[];
    const a = actions.find((x) => x.type === 'play' && x.player === 'a' && x.card !== undefined && !x.card.startsWith('Z'));
    const b = actions.find((x) => x.type === 'play' && x.player === 'b' && x.card !== undefined && !x.card.startsWith('Z'));
    const top = (engine.view(setup.state, OMNISCIENT) as ZipZapOmniscientView).top?.card;
    if (a?.card !== undefined && b?.card !== undefined && top !== undefined) found.push({ seed, top, cards: [a.card, b.card] });
  }
  if (found.length < count) throw new Error(`bench fairness: only ${found.length} race seeds found`);
  return found;
}

/** A tag UID no registry knows (cards of the `pad` path and the resting cards). */
export function loneUid(n: number): string {
  return `04BE${(n % 0x10000).toString(16).padStart(4, '0')}${Math.floor(n / 0x10000).toString(16).padStart(4, '0')}00`.toUpperCase();
}

const DWELL_MS = 150;
/** From the race's start to its first happening: the game is set up and idle. */
const LEAD_MS = 40;
/** After the second happening, until the decision is read: the slap hold (30 ms), the batch window, lines in flight. */
const DECIDE_MS = 400;
/** After reading, until the pads are clear again (the cards lifted and reported gone). */
const CLEAR_MS = 250;

interface Happening {
  readonly station: string;
  readonly uid?: string;
  trueUs: number;
}

/** A race set up on its table: its two happenings, and how its decision is read once the lines are in. */
interface SetUp {
  readonly sides: [Happening, Happening];
  /** When each side happens, ms after the race's start. */
  readonly atMs: readonly [number, number];
  decide(landings: readonly (Landing | undefined)[]): 0 | 1 | 'tie' | undefined;
  /** After the decision: back to a state the next race can start from. */
  done(): void;
}

const both = <T>(f: (i: 0 | 1) => T): [T, T] => [f(0), f(1)];

/** When each side happens: the first at LEAD_MS, the other `separationUs` later. */
function ordered(spec: RaceSpec): [number, number] {
  const later = LEAD_MS + spec.separationUs / 1000;
  return spec.firstSide === 0 ? [LEAD_MS, later] : [later, LEAD_MS];
}

function zipRace(rig: TableRig, spec: RaceSpec, seeds: RaceSeeds): SetUp {
  const zip = ZIP_TABLES.find((t) => t.resting === spec.resting) ?? ZIP_TABLES[0];
  if (zip === undefined) throw new Error('bench fairness: no Zip-Zap table');
  const raceSeed = seeds.zip[spec.seedIndex % seeds.zip.length] as RaceSeed;
  const started = rig.tables.hosts.get(zip.id)?.runtime.newGame({ seed: raceSeed.seed });
  if (started?.ok !== true) throw new Error(`bench fairness: new game on ${zip.id}: ${JSON.stringify(started)}`);
  return {
    sides: both((i) => ({ station: zip.stations[i], uid: simulatedUid({ kind: 'card', card: raceSeed.cards[i] }), trueUs: NaN })),
    atMs: ordered(spec), decide: () => zipDecision(rig, zip.id, raceSeed), done: () => undefined,
  };
}

function buzzerRace(rig: TableRig, spec: RaceSpec): SetUp {
  const buzzer = rig.tables.buzzers.get(BUZZER_TABLE.id)?.runtime;
  buzzer?.arm('bench');
  return {
    sides: both((i) => ({ station: BUZZER_TABLE.stations[i], trueUs: NaN })),
    atMs: ordered(spec), decide: () => buzzerDecision(rig),
    done: () => buzzer?.reset('bench'),
  };
}

function padRace(spec: RaceSpec, nextUid: () => number): SetUp {
  const zip = ZIP_TABLES.find((t) => t.resting === spec.resting) ?? ZIP_TABLES[0];
  const station = zip?.stations[0] ?? '';
  return {
    sides: both(() => ({ station, uid: loneUid(nextUid()), trueUs: NaN })),
    atMs: ordered(spec), decide: (landings) => intervalOrder(landings[0], landings[1]), done: () => undefined,
  };
}

/**
 * Side 0 lays the Killer, side 1 a red 0. `killer`: the first side at LEAD_MS; `deadline`: the Killer at
 * LEAD_MS, the zero `separationUs` before (side 1 first: in time) or after the deadline.
 */
function killerRace(rig: TableRig, spec: RaceSpec, seeds: RaceSeeds, path: 'killer' | 'deadline'): SetUp {
  const deal = seeds.killer[spec.seedIndex % seeds.killer.length] as KillerSeed;
  const runtime = rig.tables.hosts.get(KILLER_TABLE.id)?.runtime;
  const started = runtime?.newGame({ seed: deal.seed });
  if (runtime === undefined || started?.ok !== true) throw new Error(`bench fairness: new Killer-21 game: ${JSON.stringify(started)}`);
  const by = deal.by === 'a' ? 0 : 1;
  const outcomes: InputOutcome[] = [];
  const stop = runtime.watchOutcomes((o) => outcomes.push(o));
  const sep = spec.separationUs / 1000;
  const deadline = LEAD_MS + KILLER_WINDOW_MS;
  return {
    sides: [
      { station: KILLER_TABLE.stations[by], uid: simulatedUid({ kind: 'k21', card: deal.killer }), trueUs: NaN },
      { station: KILLER_TABLE.stations[1 - by] as string, uid: simulatedUid({ kind: 'k21', card: deal.zero }), trueUs: NaN },
    ],
    atMs: path === 'killer' ? ordered(spec) : [LEAD_MS, spec.firstSide === 1 ? deadline - sep : deadline + sep],
    decide: () => killerDecision(path, outcomes, KILLER_TABLE.players[1 - by] as string),
    done: stop,
  };
}

/** Runs one race; `nextUid` numbers the `pad` path's cards. */
export async function runRace(
  rig: TableRig, spec: RaceSpec, seeds: RaceSeeds, nextUid: () => number,
): Promise<RaceResult> {
  const race = spec.path === 'zip-zap' ? zipRace(rig, spec, seeds)
    : spec.path === 'buzzer' ? buzzerRace(rig, spec)
      : spec.path === 'pad' ? padRace(spec, nextUid)
        : killerRace(rig, spec, seeds, spec.path);
  const { sides } = race;
  rig.takeBuzzerEvents();
  rig.takeDelivered();
  sides.forEach((h, side) => {
    const physics = spec.physics[side] as HappeningDraw;
    rig.time.setTimeout(() => {
      h.trueUs = rig.time.nowUs();
      if (h.uid === undefined) rig.table.pressButton(h.station, { holdMs: 80, stampDelayUs: physics.stampDelayUs });
      else rig.table.tapCard(h.station, h.uid, DWELL_MS, { slap: spec.sensor === 'slap', ...physics });
    }, race.atMs[side] as number);
  });
  await rig.time.advance(Math.max(...race.atMs) + DECIDE_MS);
  const delivered = rig.takeDelivered();
  const landings = sides.map((h) => landingOfHappening(h, delivered));
  const decided = race.decide(landings);
  race.done();
  await rig.time.advance(CLEAR_MS);
  rig.takeDelivered();
  const truth: 0 | 1 = spec.firstSide;
  const verdict: Verdict = decided === undefined ? 'unanswered' : decided === 'tie' ? 'tie' : decided === truth ? 'right' : 'wrong';
  const judged = sides.map((h, i): SideResult => {
    const landing = landings[i];
    if (landing === undefined) return { arrived: false };
    const trueMs = h.trueUs / 1000;
    return { arrived: true, missUs: Math.max(landing.atEarliest - trueMs, trueMs - landing.atLatest) * 1000 };
  });
  return { verdict, sides: [judged[0] as SideResult, judged[1] as SideResult] };
}

/** The landing interval of the delivered event that reports this happening (undefined: it never arrived). */
function landingOfHappening(h: Happening, delivered: readonly SensorEvent[]): Landing | undefined {
  const event = delivered.find((e) => (h.uid === undefined
    ? e.kind === 'button-pressed' && e.station === h.station
    : e.kind === 'tag-arrived' && e.station === h.station && e.uid === h.uid));
  return event === undefined ? undefined : landingOf(event);
}

/** Overlapping intervals: a tie; else the earlier one. */
function intervalOrder(a: Landing | undefined, b: Landing | undefined): 0 | 1 | 'tie' | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (a.atLatest < b.atEarliest) return 0;
  if (b.atLatest < a.atEarliest) return 1;
  return 'tie';
}

/** Zip-Zap: the first card laid on the start card (0: A, 1: B), a tie pending, or nothing (unanswered). */
function zipDecision(rig: TableRig, tableId: string, raceSeed: RaceSeed): 0 | 1 | 'tie' | undefined {
  const state = rig.tables.tableState(tableId)?.state as ZipZapState | undefined;
  if (state === undefined) return undefined;
  if (state.tie !== null) {
    const players = state.tie.contenders.map((c) => c.player);
    return players.includes('a') && players.includes('b') ? 'tie' : undefined;
  }
  const start = state.pile.findIndex((p) => p.card === raceSeed.top);
  const next = start < 0 ? undefined : state.pile[start + 1];
  if (next === undefined) return undefined;
  if (next.by === 'a' && next.card === raceSeed.cards[0]) return 0;
  if (next.by === 'b' && next.card === raceSeed.cards[1]) return 1;
  return undefined;
}

/** Buzzer: the published WINNER (0: A, 1: B) or TIE; nothing is unanswered. */
function buzzerDecision(rig: TableRig): 0 | 1 | 'tie' | undefined {
  const events = rig.takeBuzzerEvents();
  for (const e of events) {
    if (e.type === 'TIE') return 'tie';
    if (e.type === 'WINNER') return e.contestant === 'a' ? 0 : e.contestant === 'b' ? 1 : undefined;
  }
  return undefined;
}
