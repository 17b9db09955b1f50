/**
 * The public view of a buzzer table: what the big screen, the host's controls, a stream overlay and a
 * lighting desk need, as plain JSON. Nothing in buzzer mode is hidden, but the view is still the only shape
 * that is published (the state's internals — accepted presses with raw stamps — stay in the log). Pure.
 */
import { rankPresses } from './ranking.ts';
import { contestantOf, holds, wallOf } from './setup.ts';
import type { BuzzerState, LockReason, Phase, TieInfo } from './types.ts';

export interface BuzzerRankingRow {
  /** 1 = first; tied presses share a place. */
  readonly place: number;
  readonly tie: boolean;
  readonly contestant: string;
  readonly name: string;
  readonly colour: string | null;
  readonly team: string | null;
  readonly station: string;
  /** µs behind the winner (0 for the winner(s)). */
  readonly delayUs: number;
  /** µs from the moment the buzzers went live to the press. */
  readonly reactionUs: number;
  /** ± µs of the press's mapped time ('device': clock sync; 'host': the hub's latency model). */
  readonly uncertaintyUs: number;
  readonly source: 'device' | 'host';
}

export interface BuzzerLockoutView {
  readonly contestant: string;
  readonly reason: LockReason;
  /** Wall-clock ms until which it holds; null: until the question ends. */
  readonly untilMs: number | null;
}

export interface BuzzerContestantView {
  readonly id: string;
  readonly name: string;
  readonly colour: string | null;
  readonly team: string | null;
  readonly station: string;
}

export interface BuzzerView {
  readonly question: number;
  readonly round: number;
  readonly phase: Phase;
  /** Wall-clock ms of the arm (null before the first). */
  readonly armedAtMs: number | null;
  /** Wall-clock ms when the buzzers went (or go) live: the zero of reaction times. */
  readonly liveAtMs: number | null;
  /** Contestant ids of the winner, or of every member of a tie for first place; empty before a decision. */
  readonly winners: readonly string[];
  readonly tie: TieInfo | null;
  /** A press that arrived after the decision was earlier than (or tied with) the winner: check the ranking. */
  readonly disputed: boolean;
  readonly ranking: readonly BuzzerRankingRow[];
  readonly lockouts: readonly BuzzerLockoutView[];
  /** False starts of this question: contestant and how early (µs before live; null when not armed). */
  readonly falseStarts: readonly { readonly contestant: string; readonly earlyByUs: number | null }[];
  readonly marks: readonly { readonly contestant: string; readonly correct: boolean }[];
  readonly contestants: readonly BuzzerContestantView[];
  readonly teams: readonly { readonly id: string; readonly name: string; readonly members: readonly string[] }[];
  /** Score per team, and per contestant without a team. */
  readonly scores: Readonly<Record<string, number>>;
  /** Reaction times (µs) of ranked presses per contestant, for the histogram (the latest 200). */
  readonly reactions: Readonly<Record<string, readonly number[]>>;
  readonly options: {
    readonly lockout: 'until-reset' | 'auto-reset';
    readonly autoResetMs: number | null;
    readonly penaltyMs: number;
    readonly readingTimerMs: number | null;
    readonly oneBuzzPerQuestion: boolean;
    readonly teamLockout: boolean;
  };
}

/** The public view at the state's latest action (lockouts that have run out by then are left out). */
export function buzzerView(state: BuzzerState): BuzzerView {
  const { setup } = state;
  const now = state.anchor.hostUs;
  const ranking = state.decision === null ? [] : rankPresses(state.presses, setup).rows.map((r) => {
    const c = contestantOf(setup, r.press.contestant);
    return {
      place: r.place, tie: r.tie, contestant: r.press.contestant, name: c?.name ?? r.press.contestant, colour: c?.colour ?? null,
      team: c?.team ?? null, station: r.press.station, delayUs: r.delayUs,
      reactionUs: r.press.time.hostUs - (state.liveAtUs ?? r.press.time.hostUs),
      uncertaintyUs: r.press.time.uncertaintyUs, source: r.press.time.source,
    };
  });
  const lockouts = Object.entries(state.lockouts).filter(([, l]) => holds(l, now)).map(([contestant, l]) => ({
    contestant, reason: l.reason, untilMs: l.untilUs === null ? null : wallOf(state, l.untilUs),
  }));
  return {
    question: state.question, round: state.round, phase: state.phase,
    armedAtMs: state.armedAt?.wallMs ?? null, liveAtMs: state.liveAtUs === null ? null : wallOf(state, state.liveAtUs),
    winners: state.decision?.winners ?? [], tie: state.decision?.tie ?? null, disputed: state.decision?.disputed ?? false,
    ranking, lockouts,
    falseStarts: state.records.filter((r) => r.outcome === 'false-start').map((r) => ({ contestant: r.contestant, earlyByUs: r.earlyByUs ?? null })),
    marks: state.marks,
    contestants: setup.contestants.map((c) => ({ id: c.id, name: c.name, colour: c.colour, team: c.team, station: c.station })),
    teams: setup.teams.map((t) => ({ id: t.id, name: t.name, members: t.members })),
    scores: state.scores, reactions: state.reactions,
    options: {
      lockout: setup.lockout, autoResetMs: setup.autoResetMs, penaltyMs: setup.penaltyMs, readingTimerMs: setup.readingTimerMs,
      oneBuzzPerQuestion: setup.oneBuzzPerQuestion, teamLockout: setup.teamLockout,
    },
  };
}
