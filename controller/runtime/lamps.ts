/**
 * Which lamp pattern each seat should show for a game state, so players see what the table decided without
 * looking at the screen. Pure; the runtime sends only changes.
 */
import type { LampPattern } from '../hardware/interface.ts';
import { placedBarrel, type ZappState } from '../rules/zapp-zerapp/index.ts';
import type { ZipZapState } from '../rules/zip-zap/index.ts';

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

/** Zip-Zap: the controller of a pause is lit (only they may restart); the round winner pulses. */
export function zipLamps(state: ZipZapState): Record<string, LampPattern> {
  const out: Record<string, LampPattern> = {};
  const mode = state.mode;
  for (const p of state.players) {
    if (mode.kind === 'PAUSED') out[p] = mode.controller === p ? 'on' : 'off';
    else if (mode.kind === 'ROUND_OVER') out[p] = mode.winner === p ? 'pulse' : mode.pending.includes(p) ? 'blink-slow' : 'off';
    else if (mode.kind === 'DEALING') out[p] = state.handKnown[p] ? 'on' : 'blink-slow';
    else out[p] = 'off';
  }
  return out;
}
