/**
 * Small pure helpers over the set-up and state: who a contestant competes and scores for, time conversions,
 * and the initial state.
 */
import type { ActionTime, BuzzerSetup, BuzzerState, ContestantSetup, Lockout } from './types.ts';

/** Defaults of every option (docs/buzzer.md explains each). */
export const BUZZER_DEFAULTS = {
  penaltyMs: 250,
  lockout: 'until-reset',
  autoResetMs: null,
  oneBuzzPerQuestion: true,
  teamLockout: true,
  readingTimerMs: null,
  points: { correct: 1, wrong: 0 },
  afterWrong: 'rearm',
  arbitrationWindowMs: 30,
  maxExtraWindowMs: 20,
  deviceResolutionUs: 4,
} as const satisfies Omit<BuzzerSetup, 'contestants' | 'teams'>;

export function contestantOf(setup: BuzzerSetup, id: string): ContestantSetup | undefined {
  return setup.contestants.find((c) => c.id === id);
}

/** What competes: the team when team lockout is on and the contestant has a team, else the contestant. */
export function entrantOf(setup: BuzzerSetup, contestant: string): string {
  const c = contestantOf(setup, contestant);
  return setup.teamLockout && c?.team != null ? c.team : contestant;
}

/** Who scores: the team when the contestant has one, else the contestant. */
export function scorerOf(setup: BuzzerSetup, contestant: string): string {
  return contestantOf(setup, contestant)?.team ?? contestant;
}

/** Every id that can hold a score: teams, and contestants without a team. */
export function scorers(setup: BuzzerSetup): string[] {
  return [...setup.teams.map((t) => t.id), ...setup.contestants.filter((c) => c.team === null).map((c) => c.id)];
}

/** The contestants an entrant stands for. */
export function membersOf(setup: BuzzerSetup, entrant: string): string[] {
  return setup.contestants.filter((c) => entrantOf(setup, c.id) === entrant).map((c) => c.id);
}

/** Controller µs → wall-clock ms, through the latest action's pair of clocks. */
export function wallOf(state: Pick<BuzzerState, 'anchor'>, hostUs: number): number {
  return Math.round(state.anchor.wallMs + (hostUs - state.anchor.hostUs) / 1000);
}

/** Whether a lockout holds at a controller time. */
export function holds(lockout: Lockout | undefined, atUs: number): boolean {
  return lockout !== undefined && (lockout.untilUs === null || atUs < lockout.untilUs);
}

export function initialState(setup: BuzzerSetup, at: ActionTime): BuzzerState {
  const scores = Object.fromEntries(scorers(setup).map((id) => [id, 0]));
  return {
    setup, question: 0, round: 0, questionOpen: false, phase: 'idle', armedAt: null, liveAtUs: null,
    presses: [], records: [], decision: null, lockouts: {}, buzzed: [], marks: [], scores, reactions: {},
    timers: { liveAtUs: null, decideAtUs: null, autoResetAtUs: null }, anchor: at,
  };
}
