/**
 * Near-ties (ZIP-45, Part C.3). With `tieWindowMs` > 0, two plays by different players that both follow the
 * same top card within the window are not decided by the engine: the earlier one is taken back (the state
 * returns to just before it) and the game waits for `resolve-tie`. The state before the last play is kept in
 * `undo` for exactly this purpose (only while the window is on, and only after a play in RACE or OPEN_START,
 * the only modes in which two players can contend for one top card).
 */
import type { ZipZapEvent } from './events.ts';
import { identityRejection, isRejection, validatePlay } from './landing.ts';
import type { ZipRejection } from './rejections.ts';
import type { PlaySpec, TiePending, ZipZapState } from './state.ts';

function within(state: ZipZapState, a: number | undefined, b: number | undefined): boolean {
  return a !== undefined && b !== undefined && Math.abs(a - b) <= state.config.tieWindowMs;
}

/** Whether `spec` ties with the last applied play: another player, within the window, legal on the same top. */
export function tiesWithLastPlay(state: ZipZapState, spec: PlaySpec): boolean {
  const u = state.undo;
  if (u === null || state.config.tieWindowMs <= 0 || u.play.player === spec.player) return false;
  if (!within(state, spec.at, u.play.at)) return false;
  return !isRejection(validatePlay(u.before, spec));
}

function byTime(a: PlaySpec, b: PlaySpec): number {
  return (a.at ?? Number.POSITIVE_INFINITY) - (b.at ?? Number.POSITIVE_INFINITY);
}

function tieEvent(tie: TiePending): ZipZapEvent {
  return {
    type: 'TIE_PENDING',
    contenders: tie.contenders.map((c) => ({
      player: c.player, card: c.card ?? null, ...(c.at === undefined ? {} : { at: c.at }),
    })),
  };
}

/** Takes the last play back and waits for a human (`resolve-tie`). Call only when `tiesWithLastPlay` holds. */
export function enterTie(state: ZipZapState, spec: PlaySpec, events: ZipZapEvent[]): ZipZapState {
  const u = state.undo;
  if (u === null) return state;
  const tie: TiePending = { contenders: [u.play, spec].sort(byTime), queued: [] };
  events.push(tieEvent(tie));
  // Batch rejections recorded since the undo point stay recorded: they happened.
  return { ...u.before, rejected: state.rejected, tie, undo: null };
}

/**
 * A play that arrives while a tie is pending joins the contenders (another player, within the window of the
 * first contender, legal on the same top) or waits in the queue until the tie is resolved.
 */
export function joinTie(state: ZipZapState, spec: PlaySpec, events: ZipZapEvent[]): ZipZapState | ZipRejection {
  const bad = identityRejection(state, spec);
  if (bad !== null) return bad;
  const tie = state.tie;
  if (tie === null) return state;
  const first = tie.contenders[0];
  const contends = first !== undefined && within(state, spec.at, first.at)
    && !tie.contenders.some((c) => c.player === spec.player) && !isRejection(validatePlay(state, spec));
  if (contends) {
    const next: TiePending = { ...tie, contenders: [...tie.contenders, spec].sort(byTime) };
    events.push(tieEvent(next));
    return { ...state, tie: next };
  }
  events.push({ type: 'PLAY_QUEUED', player: spec.player, ...(spec.at === undefined ? {} : { at: spec.at }) });
  return { ...state, tie: { ...tie, queued: [...tie.queued, spec] } };
}

/** The order in which a resolved tie's plays are applied: the chosen first, then the rest by time. */
export function resolvedOrder(tie: TiePending, first: PlaySpec): PlaySpec[] {
  return [first, ...tie.contenders.filter((c) => c !== first), ...[...tie.queued].sort(byTime)];
}
