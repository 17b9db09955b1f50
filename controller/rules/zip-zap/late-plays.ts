/**
 * Late lines (docs/timing.md §3.5, docs/rules-engine.md *Late plays*). The runtime batches the plays of one
 * arbitration window, but a play's line can arrive after its window has closed and later plays were applied
 * (a USB latency timer, a tag read held for its slap, a busy host). Whether it landed earlier is for its
 * landing interval to say, compared by the time kernel (`compareIntervals`, the buzzer's comparison too),
 * never for the arrival order. Such a play is never judged on a top card that was not on the pile when it
 * landed:
 *
 * - **Within the look-back** — it sorts before plays still in `recent` (the timed plays since the last other
 *   action that landed at most `reorderLookBackMs` before the newest): those plays are taken back and applied
 *   again after it, in landing order, each judged on the top at its moment (`PLAYS_REORDERED`, then their
 *   events). Where its interval overlaps another player's play on the same top, that is a tie for the referee
 *   (ties.ts), exactly as if the lines had come in order. The result does not depend on the arrival order.
 * - **Beyond it** — its interval does not lie wholly after the latest play (or start flip) that can no longer
 *   be taken back (`settled`): refused with `LATE_PLAY` and the figures, for the referee to rule on. The card
 *   goes back to the hand as any refused play's.
 * - **Before a pending tie** — it landed before a contender: the tie is taken back and the late play, the
 *   contenders and the queue are applied again in landing order (plays.ts).
 *
 * A play refused inside a batch stays in `recent` too (marked `refused`), so that a late line landing before it,
 * or one it could follow (ZIP-Q-7), has it judged again in landing order — as if all the lines had come in one
 * batch. Pure; the state before each play is kept in `recent` (with its own `recent` empty, so it stays small).
 */
import { UNSYNCED_UNCERTAINTY_US } from '../../kernel/clock-bounds.ts';
import { between, compareIntervals, type TimeInterval } from '../../kernel/interval.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { byTime } from './ties.ts';
import type { LandingInterval, PlaySpec, SettledPlay, UndoPoint, ZipZapState } from './state.ts';

/** A play's landing interval (controller ms) for the time kernel; undefined for a play without a time. */
export function intervalOf(p: LandingInterval): TimeInterval | undefined {
  if (p.at === undefined) return undefined;
  return between(p.atEarliest ?? p.at, p.atLatest ?? p.at, p.at);
}

function byLanding(a: LandingInterval, b: LandingInterval): number {
  return (a.at ?? Number.NEGATIVE_INFINITY) - (b.at ?? Number.NEGATIVE_INFINITY);
}

/** The later-landing of two intervals (by best estimate). */
function later(a: SettledPlay | null, b: SettledPlay): SettledPlay {
  return a === null || byLanding(b, a) > 0 ? b : a;
}

/** What `settled` keeps of a play: its interval and whose it was (no card). */
function landingOf(p: LandingInterval & { readonly player?: string }): SettledPlay {
  return {
    ...(p.at === undefined ? {} : { at: p.at }),
    ...(p.atEarliest === undefined ? {} : { atEarliest: p.atEarliest }),
    ...(p.atLatest === undefined ? {} : { atLatest: p.atLatest }),
    ...(p.player === undefined ? {} : { by: p.player }),
  };
}

/**
 * Settles `play` unless its landing is not known at all (a station not synced yet: ±1000 s, the kernel's
 * UNSYNCED_UNCERTAINTY_US). Such a play was placed by when its line came; judging later plays against its
 * interval would refuse every one of them as LATE_PLAY for as long as the interval lasts — a table that can
 * never play again.
 */
function settle(settled: SettledPlay | null, play: PlaySpec): SettledPlay | null {
  const halfWidth = ((play.atLatest ?? play.at ?? 0) - (play.atEarliest ?? play.at ?? 0)) / 2;
  if (play.at === undefined || halfWidth >= UNSYNCED_UNCERTAINTY_US / 1000) return settled;
  return later(settled, landingOf(play));
}

/**
 * Ends the look-back: every play in `recent` (and a start flip's `at`) can no longer be taken back. Called after
 * every action that is not a play, after an untimed play and when a tie is raised.
 */
export function settleRecent(state: ZipZapState, flipAt?: number): ZipZapState {
  if (state.recent.length === 0 && flipAt === undefined) return state;
  let settled = state.settled;
  for (const r of state.recent) {
    if (r.refused !== true) settled = settle(settled, r.play);
  }
  if (flipAt !== undefined) settled = later(settled, { at: flipAt });
  return { ...state, recent: [], settled };
}

/**
 * After a timed play landed (`after`, from `before`) or was refused in a batch (`refused`): it joins `recent` with
 * the state just before it; plays that landed more than `reorderLookBackMs` before the newest are dropped from the
 * front (applied ones into `settled`).
 */
export function remember(before: ZipZapState, after: ZipZapState, spec: PlaySpec, refused = false): ZipZapState {
  const point: UndoPoint = {
    before: before.recent.length === 0 ? before : { ...before, recent: [] }, play: spec,
    ...(refused ? { refused: true as const } : {}),
  };
  const recent = [...before.recent, point];
  const newest = Math.max(...recent.map((r) => r.play.at ?? Number.NEGATIVE_INFINITY));
  let settled = after.settled;
  while (recent.length > 1 && newest - ((recent[0] as UndoPoint).play.at ?? 0) > after.config.reorderLookBackMs) {
    const dropped = recent.shift() as UndoPoint;
    if (dropped.refused !== true) settled = settle(settled, dropped.play);
  }
  return { ...after, recent, settled };
}

/**
 * A play that cannot be placed: its interval does not lie wholly after the settled play's (margin 0: the
 * intervals alone). Null when it can (or has no time).
 */
export function lateRefusal(state: ZipZapState, spec: PlaySpec): ZipRejection | null {
  const theirs = state.settled === null ? undefined : intervalOf(state.settled);
  const mine = intervalOf(spec);
  if (theirs === undefined || mine === undefined) return null;
  // One player's plays never tie: they are ordered by their best estimates (ties.ts), so a player's play after
  // their own settled one is late only if its best estimate is earlier.
  if (state.settled?.by === spec.player && mine.at >= theirs.at) return null;
  const c = compareIntervals(theirs, mine);
  if (c.order === 'before') return null;
  return refuse('LATE_PLAY', `${spec.player}'s play landed at ${fmt(mine.at)} ms (−${fmt(mine.before)}/+${fmt(mine.after)}), `
    + `${c.order === 'after' ? 'before' : 'too close to'} a play at ${fmt(theirs.at)} ms that can no longer be taken back `
    + `(${fmt(Math.abs(c.separation))} ms apart, ${fmt(c.combinedUncertainty)} ms needed; look-back ${state.config.reorderLookBackMs} ms): `
    + 'a referee rules');
}

function fmt(ms: number): string {
  return String(Math.round(ms * 1000) / 1000);
}

/**
 * Where a timed play belongs in `recent` (among its first `before` plays): the index of the first play that
 * landed after it, or of a refused play whose interval overlaps it (it might fit after this one: a sequence);
 * −1 when it simply comes last.
 */
export function reorderPoint(state: ZipZapState, spec: PlaySpec, before = state.recent.length): number {
  const mine = intervalOf(spec);
  if (mine === undefined) return -1;
  return state.recent.slice(0, before).findIndex((r) => {
    const theirs = intervalOf(r.play);
    if (theirs === undefined) return false;
    return byTime(r.play, spec) > 0 || (r.refused === true && compareIntervals(theirs, mine).order === 'tie');
  });
}

/**
 * The state just before `recent[k]`, with the plays before it still in `recent`, and the plays taken back
 * (`recent[k…]`, in landing order). Refusals recorded since stay recorded: they happened.
 */
export function rewind(state: ZipZapState, k: number): { readonly state: ZipZapState; readonly takenBack: readonly PlaySpec[] } {
  const point = state.recent[k] as UndoPoint;
  const takenBack = state.recent.slice(k);
  // A refused play taken back is judged again: its old refusal leaves the list (the new verdict is recorded).
  let rejected = state.rejected;
  for (const r of takenBack) {
    if (r.refused !== true) continue;
    const i = rejected.findLastIndex((x) => x.player === r.play.player && x.at === r.play.at && x.card === (r.play.card ?? null));
    if (i >= 0) rejected = [...rejected.slice(0, i), ...rejected.slice(i + 1)];
  }
  const rewound: ZipZapState = { ...point.before, recent: state.recent.slice(0, k), settled: state.settled, rejected };
  return { state: rewound, takenBack: takenBack.map((r) => r.play) };
}
