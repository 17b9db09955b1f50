/**
 * Which lamp pattern each Zip-Zap seat shows for a game state, so players see what the table decided without
 * looking at the screen. Pure; the runtime sends only changes.
 */
import type { LampPattern } from '../../hardware/interface.ts';
import type { ZipZapState } from '../../rules/zip-zap/index.ts';

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
