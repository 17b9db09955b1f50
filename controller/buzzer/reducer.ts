/**
 * The buzzer-mode logic: `applyBuzzer(state, action) → {state, events} | rejection`. Pure: no I/O, no
 * clock (times arrive in the actions), so replaying the logged actions rebuilds any moment exactly — the
 * basis of recovery after a restart and of settling disputes.
 */
import { reject } from '../kernel/result.ts';
import { decide } from './decide.ts';
import { applyPress } from './press.ts';
import { contestantOf, entrantOf, membersOf, scorerOf } from './setup.ts';
import type { ActionTime, BuzzerAction, BuzzerEvent, BuzzerOutcome, BuzzerState, Lockout } from './types.ts';

const NO_TIMERS = { liveAtUs: null, decideAtUs: null, autoResetAtUs: null } as const;

/** Arms: a new question after a reset or a closed one, else the next round of the open question. */
function arm(state: BuzzerState, at: ActionTime, by: string, read: boolean): { state: BuzzerState; events: BuzzerEvent[] } {
  const { setup } = state;
  const newQuestion = !state.questionOpen || state.phase === 'decided';
  // A false start's penalty runs on into the next question; everything else belongs to the old one.
  const carried: Record<string, Lockout> = {};
  for (const [c, l] of Object.entries(state.lockouts)) {
    if (newQuestion ? l.reason === 'false-start' && l.untilUs !== null && l.untilUs > at.hostUs : true) carried[c] = l;
  }
  const readingMs = read && newQuestion ? setup.readingTimerMs : null;
  const liveAtUs = at.hostUs + (readingMs ?? 0) * 1000;
  const base: BuzzerState = {
    ...state,
    question: newQuestion ? state.question + 1 : state.question,
    round: newQuestion ? 1 : state.round + 1,
    questionOpen: true, armedAt: at, liveAtUs, presses: [], decision: null, lockouts: carried,
    records: newQuestion ? [] : state.records, buzzed: newQuestion ? [] : state.buzzed, marks: newQuestion ? [] : state.marks,
    timers: { ...NO_TIMERS, liveAtUs: readingMs === null ? null : liveAtUs },
    phase: readingMs === null ? 'armed' : 'reading',
  };
  const liveAtMs = Math.round(at.wallMs + (readingMs ?? 0));
  const event: BuzzerEvent = readingMs === null
    ? { type: 'BUZZER_ARMED', question: base.question, round: base.round, liveAtMs, by }
    : { type: 'READING_STARTED', question: base.question, round: base.round, readingMs, liveAtMs };
  return { state: base, events: [event] };
}

function reset(state: BuzzerState, by: string, auto: boolean): { state: BuzzerState; events: BuzzerEvent[] } {
  return {
    state: { ...state, phase: 'idle', questionOpen: false, presses: [], decision: null, lockouts: {}, timers: NO_TIMERS },
    events: [{ type: 'RESET', question: state.question, auto, by }],
  };
}

type Step = { state: BuzzerState; events: BuzzerEvent[] };

function scored(state: BuzzerState, entrant: string, delta: number, reason: string): Step {
  const total = (state.scores[entrant] ?? 0) + delta;
  return { state: { ...state, scores: { ...state.scores, [entrant]: total } }, events: [{ type: 'SCORED', entrant, delta, total, reason }] };
}

function mark(state: BuzzerState, a: Extract<BuzzerAction, { type: 'mark' }>): BuzzerOutcome {
  const { setup } = state;
  if (state.phase !== 'decided' || state.decision === null) return reject('NOT_DECIDED', 'there is no winner to mark');
  const winners = state.decision.winners;
  const contestant = a.contestant ?? (winners.length === 1 ? winners[0] : undefined);
  if (contestant === undefined) return reject('TIE_NEEDS_CONTESTANT', `a tie (${winners.join(', ')}): name the contestant who answered`);
  if (!state.presses.some((p) => p.contestant === contestant)) return reject('NOT_RANKED', `${contestant} did not buzz in this round`);
  const marked: BuzzerEvent = { type: 'MARKED', question: state.question, contestant, correct: a.correct, by: a.by };
  const points = a.correct ? setup.points.correct : setup.points.wrong;
  const score = points === 0 && !a.correct
    ? { state, events: [] } : scored(state, scorerOf(setup, contestant), points, a.correct ? 'correct' : 'wrong');
  const marks = [...state.marks, { contestant, correct: a.correct }];
  if (a.correct) {
    const closed: BuzzerState = { ...score.state, marks, phase: 'closed', questionOpen: false, timers: NO_TIMERS };
    return { ok: true, state: closed, events: [marked, ...score.events] };
  }
  // Wrong: the whole entrant (a team's every buzzer) sits out the rest of the question.
  const lockouts = { ...score.state.lockouts };
  for (const m of membersOf(setup, entrantOf(setup, contestant))) lockouts[m] = { reason: 'wrong', untilUs: null };
  const after: BuzzerState = { ...score.state, marks, lockouts, phase: 'idle', timers: NO_TIMERS };
  if (setup.afterWrong === 'stay') return { ok: true, state: after, events: [marked, ...score.events] };
  const rearmed = arm(after, a.at, a.by, false);
  return { ok: true, state: rearmed.state, events: [marked, ...score.events, ...rearmed.events] };
}

function validTime(a: Extract<BuzzerAction, { type: 'press' }>): boolean {
  const t = a.time;
  return [t.hostUs, t.deviceUs, t.epoch, t.uncertaintyUs, t.beforeUs, t.afterUs].every(Number.isFinite)
    && t.uncertaintyUs >= 0 && t.beforeUs >= 0 && t.afterUs >= 0;
}

/** Applies one action. A rejection changes nothing. */
export function applyBuzzer(previous: BuzzerState, a: BuzzerAction): BuzzerOutcome {
  const state: BuzzerState = { ...previous, anchor: a.at };
  switch (a.type) {
    case 'arm': {
      if (state.phase === 'reading' || state.phase === 'armed' || state.phase === 'judging') return reject('ALREADY_ARMED', 'the buzzers are armed already');
      return { ok: true, ...arm(state, a.at, a.by, true) };
    }
    case 'live': {
      if (state.phase !== 'reading') return { ok: true, state, events: [] };
      const live: BuzzerState = { ...state, phase: 'armed', timers: { ...state.timers, liveAtUs: null } };
      return { ok: true, state: live, events: [{ type: 'BUZZER_ARMED', question: state.question, round: state.round, liveAtMs: a.at.wallMs, by: 'reading-timer' }] };
    }
    case 'press':
      if (contestantOf(state.setup, a.contestant) === undefined) return reject('UNKNOWN_CONTESTANT', `no contestant ${a.contestant}`);
      if (!validTime(a)) return reject('BAD_ACTION', 'a press needs finite times and a non-negative uncertainty');
      return applyPress(state, a);
    case 'decide':
      return { ok: true, ...decide(state, a.at.hostUs) };
    case 'reset':
      return { ok: true, ...reset(state, a.by, false) };
    case 'auto-reset': {
      if (state.phase !== 'decided' || state.timers.autoResetAtUs === null) return { ok: true, state, events: [] };
      const cleared = reset(state, 'auto-reset', true);
      const armed = arm(cleared.state, a.at, 'auto-reset', true);
      return { ok: true, state: armed.state, events: [...cleared.events, ...armed.events] };
    }
    case 'mark':
      return mark(state, a);
    case 'score': {
      if (!(a.entrant in state.scores)) return reject('UNKNOWN_ENTRANT', `no team or contestant ${a.entrant} keeps a score`);
      if (!Number.isFinite(a.delta)) return reject('BAD_ACTION', 'delta must be a finite number');
      return { ok: true, ...scored(state, a.entrant, a.delta, a.reason ?? 'manual') };
    }
  }
}
