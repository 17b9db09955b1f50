/**
 * Every press of a session with what became of it — question, rank, delay behind the winner, reaction time,
 * false start, tie group — recomputed by replaying the logged actions through the pure logic. The material
 * of `zaptable buzzer export` (CSV) and `zaptable buzzer replay` (a dispute). Pure.
 */
import { applyBuzzer } from './reducer.ts';
import { rankPresses } from './ranking.ts';
import { contestantOf } from './setup.ts';
import type { BuzzerAction, BuzzerEvent, BuzzerState, PressRecord } from './types.ts';

export interface PressRow {
  readonly question: number;
  readonly round: number;
  readonly contestant: string;
  readonly team: string | null;
  readonly station: string;
  readonly source: 'device' | 'host';
  readonly epoch: number;
  readonly rawUs: number | null;
  readonly deviceUs: number;
  readonly mappedUs: number;
  readonly uncertaintyUs: number;
  /** The button's interval around the device stamp (µs): ranking widens the press by it. */
  readonly beforeUs: number;
  readonly afterUs: number;
  readonly outcome: PressRecord['outcome'];
  /** Place in the round (tied presses share one); null for presses that did not count. */
  readonly rank: number | null;
  /** Tie group within the round (null: not tied). */
  readonly tieGroup: number | null;
  readonly delayUs: number | null;
  readonly reactionUs: number | null;
  readonly falseStart: boolean;
  readonly reason: string | null;
  readonly sensorSeq: number | null;
}

export interface SessionReplay {
  readonly rows: PressRow[];
  readonly final: BuzzerState;
  /** Events of every action, in order (a dispute shows the decisions as they were made). */
  readonly events: { readonly action: BuzzerAction; readonly events: readonly BuzzerEvent[] }[];
  /** Actions the logic refused on replay (should be none: they were logged as applied). */
  readonly refused: { readonly action: BuzzerAction; readonly code: string }[];
}

function keyOf(r: PressRecord): string {
  return JSON.stringify([r.question, r.round, r.contestant, r.time.hostUs, r.time.deviceUs, r.sensorSeq ?? null]);
}

/** Rows for the records of a state not emitted yet, ranked presses placed by the round's ranking. */
function rowsOf(state: BuzzerState, emitted: Set<string>): PressRow[] {
  const ranking = rankPresses(state.presses, state.setup).rows;
  const rows: PressRow[] = [];
  for (const r of state.records) {
    const key = keyOf(r);
    if (emitted.has(key)) continue;
    emitted.add(key);
    const ranked = r.outcome === 'ranked' && r.round === state.round
      ? ranking.find((x) => x.press.contestant === r.contestant && x.press.time.hostUs === r.time.hostUs) : undefined;
    rows.push({
      question: r.question, round: r.round, contestant: r.contestant, team: contestantOf(state.setup, r.contestant)?.team ?? null,
      station: r.station, source: r.time.source, epoch: r.time.epoch, rawUs: r.time.rawUs ?? null, deviceUs: r.time.deviceUs,
      mappedUs: r.time.hostUs, uncertaintyUs: r.time.uncertaintyUs, beforeUs: r.time.beforeUs, afterUs: r.time.afterUs,
      outcome: r.outcome,
      rank: ranked?.place ?? null, tieGroup: ranked?.tieGroup ?? null, delayUs: ranked?.delayUs ?? null,
      reactionUs: r.outcome === 'ranked' && state.liveAtUs !== null ? r.time.hostUs - state.liveAtUs : null,
      falseStart: r.outcome === 'false-start', reason: r.reason ?? null, sensorSeq: r.sensorSeq ?? null,
    });
  }
  return rows;
}

/** Replays a session's actions from its initial state. */
export function replaySession(initial: BuzzerState, actions: readonly BuzzerAction[]): SessionReplay {
  let state = initial;
  const emitted = new Set<string>();
  const rows: PressRow[] = [];
  const events: SessionReplay['events'] = [];
  const refused: SessionReplay['refused'] = [];
  for (const action of actions) {
    // A round's ranking is read just before the action that ends it (reset, re-arm, next question).
    const ends = action.type === 'reset' || action.type === 'auto-reset' || action.type === 'arm' || action.type === 'mark';
    if (ends) rows.push(...rowsOf(state, emitted));
    const outcome = applyBuzzer(state, action);
    if (!outcome.ok) {
      refused.push({ action, code: outcome.code });
      continue;
    }
    events.push({ action, events: outcome.events });
    state = outcome.state;
  }
  rows.push(...rowsOf(state, emitted));
  return { rows, final: state, events, refused };
}
