/**
 * Round bookkeeping: calling the next mover and ending a round (ZAPP-30, ZAPP-34).
 */
import type { ZappEvent } from './events.ts';
import { rollerOfRound, type ZappState } from './state.ts';

/** The placed barrel of a player, or null. */
export function placedBarrel(state: ZappState, player: string): number | null {
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (loc?.at === 'PLACED' && loc.player === player) return v;
  }
  return null;
}

/**
 * ZAPP-34: the queue is empty, so the round ends and the next roller is up. The dice stay showing (ZAPP-10);
 * a CLAIM window stays open until the next roll (ZAPP-57).
 */
export function endRound(state: ZappState, reason: 'ALL_MOVED' | 'NOBODY_SUCCEEDED', events: ZappEvent[]): ZappState {
  events.push({ type: 'ROUND_ENDED', round: state.round, reason });
  const round = state.round + 1;
  return {
    ...state,
    phase: 'ROLL',
    round,
    roundsCompleted: state.roundsCompleted + 1,
    roller: rollerOfRound(state.players, round),
    reveal: null,
    moveQueue: [],
    selectStartedAt: null,
  };
}

/** Removes the current mover from the queue and calls the next one, or ends the round (ZAPP-30, ZAPP-34). */
export function advanceQueue(state: ZappState, events: ZappEvent[]): ZappState {
  const queue = state.moveQueue.slice(1);
  const next = queue[0];
  if (next === undefined) return endRound({ ...state, moveQueue: queue }, 'ALL_MOVED', events);
  events.push({ type: 'MOVER_CALLED', player: next, steps: placedBarrel(state, next) ?? 0 });
  return { ...state, moveQueue: queue };
}
