/**
 * Closing the arbitration window: rank the round's presses, declare the winner — or the tie, with its
 * figures, never silently decided — and remember the reaction times. Pure.
 */
import { margin, rankPresses, type RankedPress } from './ranking.ts';
import { contestantOf } from './setup.ts';
import type { AcceptedPress, BuzzerEvent, BuzzerState, PressRecord } from './types.ts';
import { REACTION_SAMPLES } from './types.ts';

/** A `BUZZ` event for a press that counts; `row` is its place once a winner is known. */
export function rankedBuzz(state: BuzzerState, press: AcceptedPress, row: RankedPress | null): BuzzerEvent {
  return {
    type: 'BUZZ', question: state.question, contestant: press.contestant,
    team: contestantOf(state.setup, press.contestant)?.team ?? null, station: press.station,
    reactionUs: press.time.hostUs - (state.liveAtUs ?? press.time.hostUs), uncertaintyUs: press.time.uncertaintyUs,
    place: row?.place ?? null, tie: row?.tie ?? false, delayUs: row?.delayUs ?? null,
  };
}

/** Adds the presses' reaction times (µs from live) to each contestant's samples. */
export function withReactions(state: BuzzerState, presses: readonly AcceptedPress[]): BuzzerState['reactions'] {
  const reactions = { ...state.reactions };
  for (const p of presses) {
    const samples = [...(reactions[p.contestant] ?? []), p.time.hostUs - (state.liveAtUs ?? p.time.hostUs)];
    reactions[p.contestant] = samples.slice(-REACTION_SAMPLES);
  }
  return reactions;
}

/**
 * Keeps each entrant's earliest press (team lockout: a teammate's later press does not rank). Among a team's
 * own presses the earliest by arbitration is kept; if they tie, the team holds the place either way.
 */
function onePerEntrant(state: BuzzerState): { kept: AcceptedPress[]; dropped: AcceptedPress[] } {
  const rows = rankPresses(state.presses, state.setup).rows;
  const seen = new Set<string>();
  const kept: AcceptedPress[] = [];
  const dropped: AcceptedPress[] = [];
  for (const r of rows) {
    if (seen.has(r.press.entrant)) dropped.push(r.press);
    else {
      seen.add(r.press.entrant);
      kept.push(r.press);
    }
  }
  return { kept, dropped };
}

function relabel(records: readonly PressRecord[], dropped: readonly AcceptedPress[], round: number): PressRecord[] {
  return records.map((r) => (r.round === round && r.outcome === 'ranked' && dropped.some((d) => d.contestant === r.contestant)
    ? { ...r, outcome: 'locked-out', reason: 'team' } : r));
}

/** Declares the result of the round (only while judging; otherwise nothing happens). */
export function decide(state: BuzzerState, atUs: number): { state: BuzzerState; events: BuzzerEvent[] } {
  if (state.phase !== 'judging') return { state, events: [] };
  const { setup } = state;
  const { kept, dropped } = onePerEntrant(state);
  const ranking = rankPresses(kept, setup);
  const first = ranking.first;
  const winners = first?.presses.map((p) => p.contestant) ?? [];
  const events: BuzzerEvent[] = dropped.map((p) => ({
    type: 'LOCKED_OUT', question: state.question, contestant: p.contestant, reason: 'team', untilMs: null,
  }));
  const winner = first?.presses[0];
  if (first !== null && first.presses.length > 1) {
    events.push({
      type: 'TIE', question: state.question, contestants: winners,
      separationUs: first.separationUs, combinedUncertaintyUs: first.combinedUncertaintyUs,
    });
  } else if (winner !== undefined) {
    const m = margin(ranking, setup);
    events.push({
      type: 'WINNER', question: state.question, contestant: winner.contestant,
      team: contestantOf(setup, winner.contestant)?.team ?? null,
      name: contestantOf(setup, winner.contestant)?.name ?? winner.contestant,
      reactionUs: winner.time.hostUs - (state.liveAtUs ?? winner.time.hostUs), uncertaintyUs: winner.time.uncertaintyUs,
      marginUs: m?.marginUs ?? null, marginUncertaintyUs: m?.uncertaintyUs ?? null,
    });
  }
  const autoResetAtUs = setup.lockout === 'auto-reset' && setup.autoResetMs !== null ? atUs + setup.autoResetMs * 1000 : null;
  const tie = winners.length > 1 && first !== null
    ? { members: winners, separationUs: first.separationUs, combinedUncertaintyUs: first.combinedUncertaintyUs } : null;
  const buzzed = [...new Set([...state.buzzed, ...kept.map((p) => p.entrant)])];
  const next: BuzzerState = {
    ...state, phase: 'decided', presses: kept, records: relabel(state.records, dropped, state.round),
    decision: { winners, tie, atUs, disputed: false },
    buzzed, reactions: withReactions(state, kept), timers: { ...state.timers, decideAtUs: null, autoResetAtUs },
  };
  return { state: next, events };
}
