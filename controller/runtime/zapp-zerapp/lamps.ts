/**
 * Which lamp pattern each Zapp Zerapp seat shows for a game state, so players see what the table decided
 * without looking at the screen. Pure; the runtime sends only changes.
 */
import type { LampPattern } from '../../hardware/interface.ts';
import { placedBarrel, type ZappState } from '../../rules/zapp-zerapp/index.ts';

/** Zapp Zerapp: lit once placed; the current mover blinks; after a win the winner pulses. */
export function zappLamps(state: ZappState): Record<string, LampPattern> {
  const out: Record<string, LampPattern> = {};
  for (const p of state.players) {
    if (state.winner !== null) out[p.id] = state.winner === p.id ? 'pulse' : 'off';
    else if (state.phase === 'SELECT') out[p.id] = placedBarrel(state, p.id) === null ? 'off' : 'on';
    else if (state.phase === 'MOVE') out[p.id] = state.moveQueue[0] === p.id ? 'blink-fast' : 'off';
    else out[p.id] = state.roller === p.id ? 'blink-slow' : 'off';
  }
  return out;
}
