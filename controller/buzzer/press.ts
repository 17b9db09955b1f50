/**
 * A press: a false start (before the buzzers are live), a lockout, a repeat, or a press that counts. The
 * press's own time decides, not when it arrived: a press stamped before the buzzers went live is a false
 * start even if its line arrives after the arm. Pure.
 */
import { rankPresses } from './ranking.ts';
import { contestantOf, entrantOf, holds, wallOf } from './setup.ts';
import type { AcceptedPress, BuzzerAction, BuzzerEvent, BuzzerOutcome, BuzzerState, PressRecord } from './types.ts';
import { rankedBuzz, withReactions } from './decide.ts';

type Press = Extract<BuzzerAction, { type: 'press' }>;

function record(state: BuzzerState, a: Press, outcome: PressRecord['outcome'], extra: Partial<PressRecord> = {}): PressRecord {
  return {
    question: state.question, round: state.round, contestant: a.contestant, station: a.station, time: a.time,
    ...(a.sensorSeq === undefined ? {} : { sensorSeq: a.sensorSeq }), outcome, ...extra,
  };
}

function falseStart(state: BuzzerState, a: Press): BuzzerOutcome {
  const { setup } = state;
  const untilUs = a.time.hostUs + setup.penaltyMs * 1000;
  const previous = state.lockouts[a.contestant];
  // A lockout for the rest of the question (a wrong answer) outlasts any penalty.
  const keep = previous !== undefined && previous.untilUs === null;
  const live = state.phase === 'reading' || state.phase === 'armed' || state.phase === 'judging' || state.phase === 'decided';
  const earlyByUs = live && state.liveAtUs !== null ? state.liveAtUs - a.time.hostUs : null;
  const lockouts = keep ? state.lockouts : { ...state.lockouts, [a.contestant]: { reason: 'false-start' as const, untilUs } };
  const event: BuzzerEvent = {
    type: 'FALSE_START', question: state.question, contestant: a.contestant, team: contestantOf(setup, a.contestant)?.team ?? null,
    station: a.station, earlyByUs, penaltyMs: setup.penaltyMs, lockedUntilMs: wallOf(state, untilUs),
  };
  const rec = record(state, a, 'false-start', { reason: 'false-start', ...(earlyByUs === null ? {} : { earlyByUs }) });
  return { ok: true, state: { ...state, lockouts, records: [...state.records, rec] }, events: [event] };
}

function lockedOut(state: BuzzerState, a: Press, reason: PressRecord['reason'] & string, untilUs: number | null): BuzzerOutcome {
  const event: BuzzerEvent = {
    type: 'LOCKED_OUT', question: state.question, contestant: a.contestant, reason,
    untilMs: untilUs === null ? null : wallOf(state, untilUs),
  };
  const rec = record(state, a, 'locked-out', { reason });
  return { ok: true, state: { ...state, records: [...state.records, rec] }, events: [event] };
}

/** Applies a press (the caller has checked the contestant exists and set the anchor). */
export function applyPress(state: BuzzerState, a: Press): BuzzerOutcome {
  const { setup } = state;
  const live = state.phase === 'armed' || state.phase === 'judging' || state.phase === 'decided';
  if (!live || state.liveAtUs === null || a.time.hostUs < state.liveAtUs) return falseStart(state, a);
  // A contestant's second press in a round changes nothing (a held or bouncing button, an impatient hand).
  if (state.presses.some((p) => p.contestant === a.contestant)) {
    return { ok: true, state: { ...state, records: [...state.records, record(state, a, 'repeat')] }, events: [] };
  }
  const lock = state.lockouts[a.contestant];
  if (lock !== undefined && holds(lock, a.time.hostUs)) return lockedOut(state, a, lock.reason, lock.untilUs);
  const entrant = entrantOf(setup, a.contestant);
  // Team lockout once a winner is known: a teammate already holds the team's place in this round.
  if (state.phase === 'decided' && entrant !== a.contestant && state.presses.some((p) => p.entrant === entrant)) {
    return lockedOut(state, a, 'team', null);
  }
  if (setup.oneBuzzPerQuestion && state.buzzed.includes(entrant)) return lockedOut(state, a, 'already-buzzed', null);
  const press: AcceptedPress = {
    contestant: a.contestant, entrant, station: a.station, time: a.time, arrivedUs: a.at.hostUs,
    ...(a.sensorSeq === undefined ? {} : { sensorSeq: a.sensorSeq }),
  };
  const presses = [...state.presses, press];
  const records = [...state.records, record(state, a, 'ranked')];
  if (state.phase === 'armed') {
    // The first press opens the arbitration window; presses that arrive within it are ranked together.
    const extraMs = Math.min(setup.maxExtraWindowMs, (2 * a.time.uncertaintyUs) / 1000);
    const decideAtUs = a.at.hostUs + Math.round((setup.arbitrationWindowMs + extraMs) * 1000);
    const buzz = rankedBuzz(state, press, null);
    return { ok: true, state: { ...state, phase: 'judging', presses, records, timers: { ...state.timers, decideAtUs } }, events: [buzz] };
  }
  if (state.phase === 'judging') return { ok: true, state: { ...state, presses, records }, events: [rankedBuzz(state, press, null)] };
  // Decided: ranked behind the winner. A press that would now come first arrived too late to win: say so.
  const next: BuzzerState = {
    ...state, presses, records, reactions: withReactions(state, [press]),
    buzzed: state.buzzed.includes(entrant) ? state.buzzed : [...state.buzzed, entrant],
  };
  const ranking = rankPresses(presses, setup);
  const row = ranking.rows.find((r) => r.press === press);
  const events: BuzzerEvent[] = [rankedBuzz(next, press, row ?? null)];
  const winners = state.decision?.winners ?? [];
  const firstNow = ranking.first?.presses.map((p) => p.contestant) ?? [];
  if (firstNow.includes(a.contestant) && !winners.includes(a.contestant) && state.decision !== null) {
    events.push({
      type: 'LATE_EARLIER_PRESS', question: state.question, contestant: a.contestant,
      message: `${a.contestant}'s press arrived after the winner was declared but is ${row?.tie === true ? 'tied with' : 'earlier than'} the winner by its timestamp`,
    });
    return { ok: true, state: { ...next, decision: { ...state.decision, disputed: true } }, events };
  }
  return { ok: true, state: next, events };
}
