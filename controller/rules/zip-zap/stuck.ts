/**
 * The stuck pause (ZIP-32) and how it is detected (ZIP-Q-3). The engine has no clock, so:
 * - ORACLE (every hand known): the engine knows at once that nobody can follow (`state.stuck`, the private
 *   STUCK_DETECTED event); the pause starts when `announce-stuck` arrives, which the runtime sends after
 *   `stuckAnnounceDelayMs` (bots at once). It is refused while anyone can still follow.
 * - TIMEOUT / HUMAN (or ORACLE without known hands, Part C.3): `declare-stuck` is accepted even if a hand
 *   could follow, as at a real table; the engine then logs a private STUCK_WARNING naming who could have.
 */
import { applied } from '../common/outcome.ts';
import type { ZipZapEvent } from './events.ts';
import { anyoneCanFollow, playersWhoCanFollow } from './follows.ts';
import { oracleActive } from './pauses.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { reserveExhausted } from './start-flip.ts';
import { allHandsKnown, topOf, type ZipZapState, type ZipOutcome } from './state.ts';

function raceRejection(state: ZipZapState): ZipRejection | null {
  if (state.mode.kind === 'ROUND_OVER') return refuse('ROUND_OVER', `round ${state.round} has ended`);
  if (state.mode.kind !== 'RACE') return refuse('NOT_IN_RACE', `stuck applies only in the race (mode ${state.mode.kind})`);
  return null;
}

function pause(state: ZipZapState, controller: string, events: ZipZapEvent[], declaredBy?: string): ZipZapState {
  events.push({ type: 'STUCK_ANNOUNCED', controller, ...(declaredBy === undefined ? {} : { declaredBy }) });
  events.push({ type: 'PAUSE_STARTED', controller, cause: 'STUCK' });
  return { ...state, stuck: false, mode: { kind: 'PAUSED', controller, cause: 'STUCK' } };
}

/** `announce-stuck` (ORACLE): the player who played the top card restarts (ZIP-32). */
export function announceStuck(state: ZipZapState): ZipOutcome {
  if (!oracleActive(state)) {
    return refuse('WRONG_STUCK_DETECTION', 'announce-stuck needs ORACLE detection with every hand known; use declare-stuck');
  }
  const bad = raceRejection(state);
  if (bad !== null) return bad;
  const top = topOf(state);
  if (top === undefined || top.by === null) return refuse('NO_CONTROLLER', 'the top card was flipped; ZIP-11 flips again instead');
  if (anyoneCanFollow(state, top.card)) return refuse('SOMEONE_CAN_PLAY', `somebody can still follow ${top.card}`);
  const events: ZipZapEvent[] = [];
  return applied(pause(state, top.by, events), events);
}

/** `declare-stuck` (TIMEOUT/HUMAN): accepted even if a hand could follow, with a private warning (ZIP-Q-3). */
export function declareStuck(state: ZipZapState, by: string | undefined): ZipOutcome {
  if (oracleActive(state)) {
    return refuse('WRONG_STUCK_DETECTION', 'with ORACLE detection and known hands the engine decides; use announce-stuck');
  }
  if (by !== undefined && !state.players.includes(by)) return refuse('NOT_A_PLAYER', `${by} is not at this table`);
  const bad = raceRejection(state);
  if (bad !== null) return bad;
  const top = topOf(state);
  if (top === undefined) return refuse('NOT_IN_RACE', 'the pile is empty');
  const events: ZipZapEvent[] = [];
  if (top.by === null) {
    // Only flipped cards on the pile: nobody restarts. Flip again, or, with the reserve gone, ZIP-Q-2 applies.
    if (state.reserveCount > 0) return refuse('NO_CONTROLLER', `${top.card} was flipped: flip the next reserve card (ZIP-11)`);
    return applied(reserveExhausted(state, events), events);
  }
  if (allHandsKnown(state)) {
    const couldPlay = playersWhoCanFollow(state, top.card);
    if (couldPlay.length > 0) events.push({ type: 'STUCK_WARNING', couldPlay });
  }
  return applied(pause(state, top.by, events, by), events);
}
