/**
 * Near-ties (ZIP-45, Part C.3): "only the first card down counts", but a sensor table knows when a card landed
 * only within an interval — a tag read dates it within the reader's poll window (tens of ms), a slap sensor to
 * the µs, a referee's entry exactly. Two plays by **different players** that both follow the **same top card**
 * and whose landing intervals overlap (or lie within `tieWindowMs` of each other, an extra margin) cannot be
 * ordered: the engine does not decide. The earlier one is taken back (the state returns to just before it) and
 * the game waits for `resolve-tie`, the `TIE_PENDING` event carrying the figures a referee needs.
 *
 * - Plays of one player are never a tie: they are applied in the order of their best estimates (`at`).
 * - A play that is legal only on the other play's card is a sequence, not a tie (ZIP-Q-7).
 * - Plays without an interval are exact: two of them tie only within `tieWindowMs` (> 0).
 *
 * The state before the last play is kept in `undo` for exactly this purpose, after a play in RACE or
 * OPEN_START (the only modes in which two players can contend for one top card).
 */
import type { TieContender, ZipZapEvent } from './events.ts';
import { identityRejection, isRejection, validatePlay } from './landing.ts';
import type { ZipRejection } from './rejections.ts';
import type { PlaySpec, TiePending, ZipZapState } from './state.ts';

/** A play's landing interval (controller ms); undefined for a play without a time. */
function intervalOf(p: PlaySpec): { readonly from: number; readonly to: number } | undefined {
  if (p.at === undefined) return undefined;
  return { from: p.atEarliest ?? p.at, to: p.atLatest ?? p.at };
}

/**
 * Whether two plays' times cannot order them: their intervals overlap (share more than a point), or with
 * `tieWindowMs` > 0 lie at most that far apart. Plays without a time are never a tie.
 */
export function timesOverlap(state: ZipZapState, a: PlaySpec, b: PlaySpec): boolean {
  const ia = intervalOf(a);
  const ib = intervalOf(b);
  if (ia === undefined || ib === undefined) return false;
  const gap = Math.max(ib.from - ia.to, ia.from - ib.to);
  const margin = state.config.tieWindowMs;
  return gap < 0 || (margin > 0 && gap <= margin);
}

/** Whether a play just applied in `before` could still be contested by a later one (so its undo point is kept). */
export function mayBeContested(before: ZipZapState, spec: PlaySpec): boolean {
  return spec.at !== undefined && (before.mode.kind === 'RACE' || before.mode.kind === 'OPEN_START');
}

/** Whether `spec` ties with the last applied play: another player, overlapping times, legal on the same top. */
export function tiesWithLastPlay(state: ZipZapState, spec: PlaySpec): boolean {
  const u = state.undo;
  if (u === null || u.play.player === spec.player) return false;
  if (!timesOverlap(state, spec, u.play)) return false;
  return !isRejection(validatePlay(u.before, spec));
}

function byTime(a: PlaySpec, b: PlaySpec): number {
  return (a.at ?? Number.POSITIVE_INFINITY) - (b.at ?? Number.POSITIVE_INFINITY);
}

/** What a referee is shown about a tie (ms): how far apart the best estimates are, and how far they would need to be. */
export interface TieFigures {
  /** Latest minus earliest best estimate (`at`) among the contenders. */
  readonly separationMs: number;
  /**
   * The widest, over the pairs of contenders, of how far apart their best estimates would have to be for an
   * order: the earlier one's reach after its `at` plus the later one's reach before its own.
   */
  readonly combinedUncertaintyMs: number;
  /** The extra margin `tieWindowMs` that applied (0: intervals alone). */
  readonly tieWindowMs: number;
}

/** The figures of a tie's contenders (pure, also used by the view). */
export function tieFigures(state: ZipZapState, contenders: readonly PlaySpec[]): TieFigures {
  const timed = contenders.filter((c) => c.at !== undefined).sort(byTime);
  const ats = timed.map((c) => c.at as number);
  let combined = 0;
  for (let i = 0; i < timed.length; i++) {
    for (let j = i + 1; j < timed.length; j++) {
      const a = timed[i] as PlaySpec;
      const b = timed[j] as PlaySpec;
      const reach = ((a.atLatest ?? a.at ?? 0) - (a.at ?? 0)) + ((b.at ?? 0) - (b.atEarliest ?? b.at ?? 0));
      combined = Math.max(combined, reach);
    }
  }
  return {
    separationMs: ats.length === 0 ? 0 : Math.max(...ats) - Math.min(...ats),
    combinedUncertaintyMs: combined,
    tieWindowMs: state.config.tieWindowMs,
  };
}

/** One contender as events and views show it (without its card). */
export function contenderFigures(c: PlaySpec): TieContender {
  return {
    player: c.player,
    ...(c.at === undefined ? {} : { at: c.at }),
    ...(c.atEarliest === undefined ? {} : { atEarliest: c.atEarliest }),
    ...(c.atLatest === undefined ? {} : { atLatest: c.atLatest }),
    ...(c.timedBy === undefined ? {} : { timedBy: c.timedBy }),
  };
}

function tieEvent(state: ZipZapState, tie: TiePending): ZipZapEvent {
  return {
    type: 'TIE_PENDING',
    contenders: tie.contenders.map((c) => ({ ...contenderFigures(c), card: c.card ?? null })),
    ...tieFigures(state, tie.contenders),
  };
}

/** Takes the last play back and waits for a human (`resolve-tie`). Call only when `tiesWithLastPlay` holds. */
export function enterTie(state: ZipZapState, spec: PlaySpec, events: ZipZapEvent[]): ZipZapState {
  const u = state.undo;
  if (u === null) return state;
  const tie: TiePending = { contenders: [u.play, spec].sort(byTime), queued: [] };
  events.push(tieEvent(state, tie));
  // Batch rejections recorded since the undo point stay recorded: they happened.
  return { ...u.before, rejected: state.rejected, tie, undo: null };
}

/**
 * A play that arrives while a tie is pending joins the contenders (another player whose times overlap a
 * contender's, legal on the same top) or waits in the queue until the tie is resolved.
 */
export function joinTie(state: ZipZapState, spec: PlaySpec, events: ZipZapEvent[]): ZipZapState | ZipRejection {
  const bad = identityRejection(state, spec);
  if (bad !== null) return bad;
  const tie = state.tie;
  if (tie === null) return state;
  const contends = tie.contenders.some((c) => timesOverlap(state, spec, c))
    && !tie.contenders.some((c) => c.player === spec.player) && !isRejection(validatePlay(state, spec));
  if (contends) {
    const next: TiePending = { ...tie, contenders: [...tie.contenders, spec].sort(byTime) };
    events.push(tieEvent(state, next));
    return { ...state, tie: next };
  }
  events.push({ type: 'PLAY_QUEUED', player: spec.player, ...(spec.at === undefined ? {} : { at: spec.at }) });
  return { ...state, tie: { ...tie, queued: [...tie.queued, spec] } };
}

/** The order in which a resolved tie's plays are applied: the chosen first, then the rest by time. */
export function resolvedOrder(tie: TiePending, first: PlaySpec): PlaySpec[] {
  return [first, ...tie.contenders.filter((c) => c !== first), ...[...tie.queued].sort(byTime)];
}
