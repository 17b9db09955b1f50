/**
 * The simulator panel's answer: what the table made of a simulated sensor action. The op is carried out on the
 * simulated hardware, whose lines reach the table through the real serial driver some milliseconds later;
 * the answer waits until the table has handled the sensor events the op causes (and, for a Zip-Zap play, the
 * arbitration window that applies it), then says what came of them: applied, a violation reported, nothing to
 * do, or refused with the code and a sentence. Refusals are the public ones (HIDDEN_REASON where the reason
 * depends on a hand or an unrevealed barrel, docs/mqtt.md "Refusals and hidden information"), and events are
 * read in their public form: the requester learns nothing a viewer of the event stream could not.
 */
import type { SensorEvent, StationId } from '../hardware/interface.ts';
import { reject, type Result } from '../kernel/result.ts';
import type { GameId } from '../rules/engine.ts';
import { getEngine } from '../rules/games.ts';
import type { PendingEvent } from '../runtime/ports.ts';
import type { InputOutcome, PublicRefusalOf, TableRuntime } from '../runtime/table-runtime.ts';
import { publicEventOf } from '../transport/index.ts';
import type { SimulatorOp } from './simulator.ts';

/** How long the answer waits for the table to read what the op did (a station boots in 0.3 s; a tag in ms). */
export const SENSOR_WAIT_MS = 4000;
/** After a tag arrived on a seat pad, how long the answer waits for its weight to settle (placements need it). */
export const SETTLE_WAIT_MS = 1500;

export type SimulateOutcome = Result<{
  /** `applied`: the game changed; `violation`: the table reported one; `unchanged`: nothing to do; `done`: no reading to wait for. */
  readonly outcome: 'applied' | 'violation' | 'unchanged' | 'done';
  readonly message: string;
  /** The public events the op led to, by type. */
  readonly events: readonly string[];
}>;

/** The sensor events an op is answered after: every tag leaving (lift), a tag arriving (place, tap), the button. */
interface Expectation {
  /** Tags that must arrive (place, tap) or leave (lift) before the answer. */
  readonly tags: Set<string>;
  readonly tagKind: 'tag-arrived' | 'tag-left' | null;
  readonly button: boolean;
  /** A seat pad's weight settles after the tags (place, lift on a station with a scale). */
  readonly settle: boolean;
}

function expectationOf(op: SimulatorOp, uids: readonly string[], hasScale: boolean): Expectation | null {
  switch (op) {
    case 'place': return { tags: new Set(uids), tagKind: 'tag-arrived', button: false, settle: hasScale };
    case 'tap': return { tags: new Set(uids), tagKind: 'tag-arrived', button: false, settle: false };
    case 'lift': return uids.length === 0 ? null : { tags: new Set(uids), tagKind: 'tag-left', button: false, settle: hasScale };
    case 'press': return { tags: new Set(), tagKind: null, button: true, settle: false };
    case 'unplug':
    case 'plug':
    case 'reset':
      return null;
  }
}

const WHAT: Readonly<Record<SimulatorOp, string>> = {
  place: 'the item on the pad', tap: 'the card', lift: 'the lifted item', press: 'the button', unplug: '', plug: '', reset: '',
};

/**
 * Runs `act` (the op on the simulated hardware) and waits for the table's outcome. `uids`: the tags the op puts
 * down or takes away; `player`: the seat's player (for a play's verdict in a batch).
 */
export async function simulateAndWait(options: {
  readonly runtime: TableRuntime;
  readonly game: GameId;
  readonly station: StationId;
  readonly op: SimulatorOp;
  readonly uids: readonly string[];
  readonly hasScale: boolean;
  readonly act: () => void;
  /** The station is unplugged or booting: nothing is read now (the world changes all the same). */
  readonly offline?: boolean;
  readonly sensorWaitMs?: number;
}): Promise<SimulateOutcome> {
  const { runtime, station, op } = options;
  const expect = expectationOf(op, options.uids, options.hasScale);
  if (options.offline === true && expect !== null) {
    options.act();
    return { ok: true, outcome: 'done', message: `${station} is unplugged or booting: the table reads its pad once it is online again`, events: [] };
  }
  if (expect === null) {
    options.act();
    return op === 'lift'
      ? { ok: true, outcome: 'unchanged', message: `nothing lay on ${station}'s pad`, events: [] }
      : { ok: true, outcome: 'done', message: `${station}: ${op} done`, events: [] };
  }
  const outcomes: InputOutcome[] = [];
  return new Promise<SimulateOutcome>((resolve) => {
    let pendingPlays = 0;
    let readingsDone = false;
    let pressed = false;
    let settleTimer: NodeJS.Timeout | undefined;
    const finish = (result: SimulateOutcome): void => {
      clearTimeout(timer);
      clearTimeout(settleTimer);
      stop();
      resolve(result);
    };
    const judgeNow = (): void => {
      finish(judge(options.game, outcomes));
    };
    const maybeDone = (): void => {
      if (readingsDone && pendingPlays === 0 && settleTimer === undefined) judgeNow();
    };
    const timer = setTimeout(() => {
      // Something was read (e.g. the tag without its weight settling): answer with that; nothing at all is an error.
      if (outcomes.length > 0) {
        judgeNow();
        return;
      }
      finish(reject('NOT_SEEN', `the table did not read ${WHAT[op]} on ${station} within ${(options.sensorWaitMs ?? SENSOR_WAIT_MS) / 1000} s`
        + ' (a card still lying on the pad is not read again; is the station plugged in?)'));
    }, options.sensorWaitMs ?? SENSOR_WAIT_MS);
    const stop = runtime.watchOutcomes((outcome) => {
      const cause = outcome.cause;
      if (cause.kind === 'plays') {
        const mine = cause.plays.filter((p) => p.station === station).length;
        if (mine === 0 || pendingPlays === 0) return;
        pendingPlays = Math.max(0, pendingPlays - mine);
        outcomes.push(outcome);
        maybeDone();
        return;
      }
      const event = cause.event;
      if (event.station !== station || !relevant(event, expect, readingsDone)) return;
      outcomes.push(outcome);
      if (outcome.queued) pendingPlays++;
      if ((event.kind === 'tag-arrived' || event.kind === 'tag-left') && event.kind === expect.tagKind) expect.tags.delete(event.uid);
      if (event.kind === 'button-pressed') pressed = true;
      const tagsDone = expect.tags.size === 0;
      const buttonDone = !expect.button || pressed;
      if (event.kind === 'weight-settled' && readingsDone) {
        clearTimeout(settleTimer);
        settleTimer = undefined;
      } else if (!readingsDone && tagsDone && buttonDone) {
        readingsDone = true;
        if (expect.settle) {
          // The weight that settles with the item there is what makes a barrel count as placed.
          settleTimer = setTimeout(() => {
            settleTimer = undefined;
            maybeDone();
          }, SETTLE_WAIT_MS);
        }
      }
      maybeDone();
    });
    options.act();
  });
}

/** The sensor events that belong to the op: its tags, its button press, and the weight settling after them. */
function relevant(event: SensorEvent, expect: Expectation, readingsDone: boolean): boolean {
  switch (event.kind) {
    case 'tag-arrived':
    case 'tag-left':
      return event.kind === expect.tagKind && expect.tags.has(event.uid);
    case 'button-pressed':
      return expect.button && !readingsDone;
    case 'weight-settled':
      return expect.settle && readingsDone;
    case 'button-released':
    case 'slap':
      return false;
  }
}

interface PublicEventLike {
  readonly type: string;
  readonly [field: string]: unknown;
}

function publicEvents(game: GameId, events: readonly PendingEvent[]): PublicEventLike[] {
  const meta = { seq: 0, at: 0 };
  return events.flatMap((e): PublicEventLike[] => {
    const visible: object | null = e.source === 'engine' ? publicEventOf(game, e.event, meta) : e.event;
    return visible === null ? [] : [visible as PublicEventLike];
  });
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The verdict over everything the op led to: a refusal wins, then a notice that changed nothing, then a violation. */
export function judge(game: GameId, outcomes: readonly InputOutcome[]): SimulateOutcome {
  const engine = getEngine(game);
  const events = outcomes.flatMap((o) => publicEvents(game, o.events));
  const types = events.map((e) => e.type);
  const refusals: PublicRefusalOf[] = outcomes.flatMap((o) => o.refusals);
  // A play refused inside a batch (PLAY_REJECTED) is the play's refusal, through the same public filter as a
  // `play` or `zap` request's (the raw event tells the two apart: a ZAP call names no card).
  for (const o of outcomes) {
    for (const pending of o.events) {
      const e = pending.event as { type?: unknown; card?: unknown; code?: unknown; message?: unknown };
      if (pending.source !== 'engine' || e.type !== 'PLAY_REJECTED') continue;
      const action = e.card === null || e.card === undefined ? 'zap' : 'play';
      // With its card, so the public rule can leave out a card the reason is not about (rules/common/spectator.ts).
      const shown = engine.publicRejection({ type: action, ...(typeof e.card === 'string' ? { card: e.card } : {}) }, reject(text(e.code), text(e.message)));
      refusals.push({ action, code: shown.code, message: shown.message });
    }
  }
  const changed = outcomes.some((o) => o.changed);
  const refusal = refusals[0];
  if (refusal !== undefined) return reject(refusal.code, refusal.message);
  const notices = events.filter((e) => e.type === 'NOTICE');
  const notice = notices[0];
  if (notice !== undefined && !changed) return reject(text(notice.code), text(notice.message));
  const violation = events.find((e) => e.type === 'VIOLATION_REPORTED');
  if (violation !== undefined) {
    return {
      ok: true, outcome: 'violation', events: types,
      message: `violation reported: ${text(violation.player)} ${text(violation.kind)}${typeof violation.detail === 'string' ? ` (${violation.detail})` : ''}`,
    };
  }
  const tie = events.find((e) => e.type === 'TIE_PENDING');
  if (tie !== undefined) return { ok: true, outcome: 'applied', events: types, message: 'tied with another play: the referee decides which landed first' };
  if (!changed) return { ok: true, outcome: 'unchanged', events: types, message: 'read by the table; nothing to do in this phase' };
  const note = notices.length === 0 ? '' : ` (${notices.map((n) => `${text(n.code)}: ${text(n.message)}`).join('; ')})`;
  return { ok: true, outcome: 'applied', events: types, message: `accepted: ${types.filter((t) => t !== 'NOTICE').join(', ') || 'the game changed'}${note}` };
}
