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
 * - Plays without bounds are exact (`at` alone, a zero-width interval): two of them tie when at most
 *   `tieWindowMs` apart — at the same ms, too, since their intervals touch.
 * - Every comparison is the time kernel's `compareIntervals` (controller/kernel/interval.ts), the buzzer's.
 *
 * The state before the last play is kept in `recent` (late-plays.ts) for this purpose and for late lines; in
 * any mode but RACE and OPEN_START no two players can both play on one top, so no tie arises there.
 */
import { compareIntervals, type IntervalOrder, type TimeInterval } from '../../kernel/interval.ts';
import type { TieContender, ZipZapEvent } from './events.ts';
import { identityRejection, isRejection, validatePlay } from './landing.ts';
import { intervalOf, lateRefusal, settleRecent } from './late-plays.ts';
import type { ZipRejection } from './rejections.ts';
import type { PlaySpec, TiePending, UndoPoint, ZipZapState } from './state.ts';

/**
 * How two plays' times compare, by the time kernel's one comparison (`compareIntervals`, the buzzer's too):
 * `before`/`after` when a's latest moment lies more than `tieWindowMs` before b's earliest or the other way
 * round, else `tie`. Undefined when either play has no time.
 */
export function compareTimes(state: ZipZapState, a: PlaySpec, b: PlaySpec): IntervalOrder | undefined {
  const ia = intervalOf(a);
  const ib = intervalOf(b);
  if (ia === undefined || ib === undefined) return undefined;
  return compareIntervals(ia, ib, { margin: state.config.tieWindowMs }).order;
}

/**
 * Whether two plays' times cannot order them: their intervals meet (touching intervals share a moment), or
 * lie at most `tieWindowMs` apart. Plays without a time are never a tie.
 */
export function timesOverlap(state: ZipZapState, a: PlaySpec, b: PlaySpec): boolean {
  return compareTimes(state, a, b) === 'tie';
}

/** The last applied play that may still be taken back (late-plays.ts), if any. */
function lastPlay(state: ZipZapState): UndoPoint | undefined {
  return state.recent.findLast((r) => r.refused !== true);
}

/** Whether `spec` ties with the last applied play: another player, overlapping times, legal on the same top. */
export function tiesWithLastPlay(state: ZipZapState, spec: PlaySpec): boolean {
  const u = lastPlay(state);
  if (u === undefined || u.play.player === spec.player) return false;
  if (!timesOverlap(state, spec, u.play)) return false;
  return !isRejection(validatePlay(u.before, spec));
}

/**
 * Plays by their best estimates, untimed ones last. Equal estimates are put in a fixed order (player, then card)
 * rather than the order they arrived in: arrival order decides nothing (principle 4), and a late line must come
 * out as if it had been on time.
 */
export function byTime(a: PlaySpec, b: PlaySpec): number {
  const d = (a.at ?? Number.POSITIVE_INFINITY) - (b.at ?? Number.POSITIVE_INFINITY);
  if (d !== 0 && !Number.isNaN(d)) return d;
  const ka = `${a.player}\u0000${a.card ?? ''}`;
  const kb = `${b.player}\u0000${b.card ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
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
      const a = intervalOf(timed[i] as PlaySpec) as TimeInterval;
      const b = intervalOf(timed[j] as PlaySpec) as TimeInterval;
      combined = Math.max(combined, compareIntervals(a, b).combinedUncertainty);
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
  const u = lastPlay(state);
  if (u === undefined) return state;
  const tie: TiePending = { contenders: [u.play, spec].sort(byTime), queued: [] };
  events.push(tieEvent(state, tie));
  // Batch rejections recorded since the undo point stay recorded: they happened. The plays before the
  // contended one can no longer be taken back.
  const earlier = settleRecent({ ...state, recent: state.recent.slice(0, state.recent.indexOf(u)) });
  return { ...u.before, rejected: state.rejected, tie, recent: [], settled: earlier.settled };
}

/**
 * Whether a play that arrives while a tie is pending landed before one of its contenders (a late line): then the
 * tie is taken back and everything is applied again in landing order (plays.ts), as if the line had been on time.
 */
export function landsBeforeTie(state: ZipZapState, spec: PlaySpec): boolean {
  const mine = intervalOf(spec);
  if (state.tie === null || mine === undefined) return false;
  return state.tie.contenders.some((c) => {
    const theirs = intervalOf(c);
    return theirs !== undefined && compareIntervals(mine, theirs).order === 'before';
  });
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
  const late = lateRefusal(state, spec);
  if (late !== null) return late;
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
