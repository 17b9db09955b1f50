/**
 * Card plays in time order (ZIP-13, ZIP-45). A single `play`/`zap` is checked against the top card at the
 * moment it landed: normally the current top; for a late line, the top before the plays it landed before
 * (late-plays.ts). A `plays` batch is sorted by `at` (stable) and each item is checked against the top
 * at its moment: a later card that follows the new top is accepted (ZIP-Q-7), one that no longer follows is
 * refused with a `PLAY_REJECTED` event and goes back to the hand, and the batch itself is applied.
 */
import { applied } from '../common/outcome.ts';
import type { PlaysAction, ZapAction, PlayAction } from './actions.ts';
import type { ZipZapEvent } from './events.ts';
import { identityRejection, isRejection, land, validatePlay } from './landing.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { lateRefusal, remember, reorderPoint, rewind, settleRecent } from './late-plays.ts';
import type { PlaySpec, TiePending, ZipZapState, ZipOutcome } from './state.ts';
import { byTime, enterTie, joinTie, landsBeforeTie, resolvedOrder, tiesWithLastPlay, timesOverlap } from './ties.ts';

/** How many refused batch plays the state remembers for the dashboard (per round). */
const REJECTED_KEPT = 20;

type Step = { readonly state: ZipZapState; readonly events: ZipZapEvent[] } | ZipRejection;

/**
 * Applies one play (no tie pending): a late play put in its place, a tie with the last play, a landing, or a
 * rejection. `timeOrder` false: a human has ruled on the order (resolve-tie), so times decide nothing.
 * `sequence`: the play is tried after a later-estimated play its interval overlaps (runSequence), so it is not
 * put back before it. Only the first `before` plays of `recent` (those applied before the current batch) may
 * be taken back: the batch itself is already in landing order. Each nested re-order starts further back, so
 * this ends.
 */
function playOne(state: ZipZapState, spec: PlaySpec, timeOrder: boolean, sequence = false, before = state.recent.length): Step {
  const events: ZipZapEvent[] = [];
  if (timeOrder) {
    const late = lateRefusal(state, spec);
    if (late !== null) return late;
    const k = sequence ? -1 : reorderPoint(state, spec, before);
    if (k >= 0) return reorder(state, spec, k, events);
    if (tiesWithLastPlay(state, spec)) return { state: enterTie(state, spec, events), events };
  }
  const landing = validatePlay(state, spec);
  if (isRejection(landing)) return landing;
  const s = land(state, spec, landing, events);
  return { state: spec.at === undefined ? settleRecent(s) : remember(state, s, spec), events };
}

/**
 * A late play that landed before `recent[k]` (late-plays.ts): the plays from there on are taken back, and it
 * and they are applied in landing order, with ties detected as usual. The identity of the late play was
 * checked; whether it is legal is judged on the top at its moment, like every other.
 */
function reorder(state: ZipZapState, spec: PlaySpec, first: number, events: ZipZapEvent[]): Step {
  // Go back far enough that no play of the re-run belongs before an earlier one still kept: then the re-run,
  // in landing order, takes nothing else back.
  let k = first;
  for (;;) {
    const points = state.recent.slice(k).map((r) => reorderPoint(state, r.play, k)).filter((i) => i >= 0);
    const m = Math.min(k, ...points);
    if (m === k) break;
    k = m;
  }
  const { state: rewound, takenBack } = rewind(state, k);
  events.push({
    type: 'PLAYS_REORDERED', player: spec.player, at: spec.at as number,
    takenBack: takenBack.map((p) => ({ player: p.player, at: p.at as number })),
  });
  const order = [spec, ...takenBack].sort(byTime);
  return { state: runSequence(rewound, order, true, events, false), events };
}

/**
 * A late line for a play that landed before a contender of the pending tie: the tie is taken back (the state
 * under it is the one before its first contender) and the late play, the contenders and the queue are applied
 * again in landing order, ties detected as usual.
 */
function dissolveTie(state: ZipZapState, spec: PlaySpec, events: ZipZapEvent[]): ZipZapState {
  const tie = state.tie as TiePending;
  const takenBack = [...tie.contenders, ...tie.queued];
  events.push({
    type: 'PLAYS_REORDERED', player: spec.player, at: spec.at as number,
    takenBack: takenBack.map((p) => ({ player: p.player, at: p.at ?? 0 })),
  });
  return runSequence({ ...state, tie: null }, [spec, ...takenBack].sort(byTime), true, events);
}

function recordRejection(state: ZipZapState, spec: PlaySpec, why: ZipRejection, events: ZipZapEvent[]): ZipZapState {
  const card = spec.card ?? null;
  const at = spec.at === undefined ? {} : { at: spec.at };
  events.push({ type: 'PLAY_REJECTED', player: spec.player, card, code: why.code, message: why.message, ...at });
  const rejected = [...state.rejected, { player: spec.player, card, code: why.code, message: why.message, ...at }];
  return { ...state, rejected: rejected.length > REJECTED_KEPT ? rejected.slice(-REJECTED_KEPT) : rejected };
}

/**
 * Applies plays in the given order; refused ones become PLAY_REJECTED events (ZIP-45/46).
 *
 * The order is the order of the best estimates, but where two plays' landing intervals overlap the sensors
 * cannot say which came first. A play refused at its turn that overlaps a later play of the batch therefore
 * waits and is tried again after each of those: the ZAP call of a player whose card's read came later, or a
 * card that follows only the other player's card, is a sequence (ZIP-Q-7), accepted in the one order that
 * makes it legal. It is refused only if it fits after none of them. (Two plays that both fit the same top are
 * not reordered: that is a tie, ties.ts.)
 */
function runSequence(
  state: ZipZapState, specs: readonly PlaySpec[], timeOrder: boolean, events: ZipZapEvent[], reorders = true,
): ZipZapState {
  let s = state;
  // Plays in `recent` before this batch may be taken back (not in a re-run: it went back far enough); the
  // batch's own are in landing order already.
  const earlier = reorders ? state.recent.length : 0;
  const waiting: { readonly spec: PlaySpec; readonly until: number }[] = [];
  /** Tries a play: applied, joined to a tie, or — when `final` — recorded as refused. Returns whether it took. */
  const attempt = (spec: PlaySpec, final: boolean, retry = false): boolean => {
    if (s.tie !== null && timeOrder && reorders && !retry && landsBeforeTie(s, spec) && lateRefusal(s, spec) === null) {
      s = dissolveTie(s, spec, events);
      return true;
    }
    if (s.tie !== null) {
      const joined = joinTie(s, spec, events);
      s = 'code' in joined ? recordRejection(s, spec, joined, events) : joined;
      return true;
    }
    const step = playOne(s, spec, timeOrder, retry, Math.min(earlier, s.recent.length));
    if ('code' in step) {
      if (!final) return false;
      const before = s;
      s = recordRejection(s, spec, step, events);
      // Kept in the look-back: a late line may yet make it fit, or land before it (late-plays.ts).
      if (timeOrder && spec.at !== undefined && step.code !== 'LATE_PLAY') s = remember(before, s, spec, true);
      return true;
    }
    s = step.state;
    for (const e of step.events) events.push(e);
    return true;
  };
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as PlaySpec;
    let until = -1;
    for (let j = i + 1; j < specs.length; j++) if (timesOverlap(s, spec, specs[j] as PlaySpec)) until = j;
    if (!attempt(spec, until < 0)) waiting.push({ spec, until });
    // Plays waiting for this one are tried again; after the last play they overlap, for good.
    for (const w of [...waiting]) {
      if (w.spec === spec) continue;
      if (attempt(w.spec, i >= w.until, true)) waiting.splice(waiting.indexOf(w), 1);
    }
  }
  return s;
}

function single(state: ZipZapState, spec: PlaySpec): ZipOutcome {
  const events: ZipZapEvent[] = [];
  if (landsBeforeTie(state, spec) && lateRefusal(state, spec) === null) return applied(dissolveTie(state, spec, events), events);
  if (state.tie !== null) {
    const joined = joinTie(state, spec, events);
    return 'code' in joined ? joined : applied(joined, events);
  }
  const step = playOne(state, spec, true);
  return 'code' in step ? step : applied(step.state, step.events);
}

/** `play`: one card, checked against the current top. A ZAP card id is treated as `zap`. */
export function playAction(state: ZipZapState, action: PlayAction): ZipOutcome {
  const { type: _type, ...spec } = action;
  return single(state, spec);
}

/** `zap`: the player's ZAP (ZIP-41). */
export function zapAction(state: ZipZapState, action: ZapAction): ZipOutcome {
  const { type: _type, ...spec } = action;
  return single(state, { ...spec, zap: true });
}

/**
 * `plays`: a batch sorted by `at`. Refused as a whole only when an item names an unknown player or card;
 * otherwise applied, with each item's result among the events.
 */
export function playsAction(state: ZipZapState, action: PlaysAction): ZipOutcome {
  for (const item of action.plays) {
    const bad = identityRejection(state, item);
    if (bad !== null) return bad;
  }
  // Plays with equal timestamps go in a fixed order (byTime), not in the order they arrived.
  const specs: PlaySpec[] = [...action.plays].sort(byTime);
  const events: ZipZapEvent[] = [];
  return applied(runSequence(state, specs, true, events), events);
}

/** `resolve-tie`: `first`'s play landed first; then the other contenders and the queue, each checked in turn. */
export function resolveTieAction(state: ZipZapState, first: string): ZipOutcome {
  const tie = state.tie;
  if (tie === null) return refuse('NO_TIE_PENDING', 'there is no tie to resolve');
  if (!state.players.includes(first)) return refuse('NOT_A_PLAYER', `${first} is not at this table`);
  const chosen = tie.contenders.find((c) => c.player === first);
  if (chosen === undefined) return refuse('NOT_A_CONTENDER', `${first} has no play in the tie`);
  const events: ZipZapEvent[] = [{ type: 'TIE_RESOLVED', first }];
  // A human has ruled on the order, so the resolved plays are not re-examined for ties.
  const s = runSequence({ ...state, tie: null }, resolvedOrder(tie, chosen), false, events);
  return applied(settleRecent(s), events);
}
