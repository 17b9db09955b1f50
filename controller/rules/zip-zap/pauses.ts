/**
 * What a card that has just landed does to the mode (A.6): the round ends when the hand is empty (ZIP-50,
 * also after a 10 or a ZAP); otherwise a 10 starts a 10-pause (ZIP-30), a ZAP a ZAP-pause (ZIP-31/43), and
 * any other card (re)starts the race (ZIP-34), after which the stuck check runs (ZIP-32).
 */
import { cardInfo } from './cards.ts';
import type { ZipZapEvent } from './events.ts';
import { isStuck } from './follows.ts';
import { endRound } from './scoring.ts';
import type { ZipZapState } from './state.ts';

/** Whether ORACLE detection is in force: configured, and every hand known (else it falls back to HUMAN, C.3). */
export function oracleActive(state: ZipZapState): boolean {
  if (state.config.stuckDetection !== 'ORACLE') return false;
  for (const p of state.players) if (state.handKnown[p] !== true) return false;
  return true;
}

/**
 * Sets the mode after `player` put `card` on the pile (the card is already on top and out of the hand).
 * The stuck flag is recomputed; with ORACLE the (non-public) STUCK_DETECTED event tells the runtime to send
 * `announce-stuck` after `stuckAnnounceDelayMs`, so the engine never gives the state away at once (ZIP-Q-3).
 */
export function afterLanding(state: ZipZapState, player: string, card: string, events: ZipZapEvent[]): ZipZapState {
  if ((state.handCounts[player] ?? 0) === 0) return endRound(state, player, events);
  const info = cardInfo(card);
  if (info?.kind === 'ZAP') {
    events.push({ type: 'PAUSE_STARTED', controller: player, cause: 'ZAP' });
    return { ...state, stuck: false, mode: { kind: 'PAUSED', controller: player, cause: 'ZAP' } };
  }
  if (info?.kind === 'NUMBER' && info.value === 10) {
    events.push({ type: 'PAUSE_STARTED', controller: player, cause: 'TEN' });
    return { ...state, stuck: false, mode: { kind: 'PAUSED', controller: player, cause: 'TEN' } };
  }
  if (state.mode.kind !== 'RACE') events.push({ type: 'RACE_RESUMED' });
  const racing: ZipZapState = state.mode.kind === 'RACE' ? state : { ...state, mode: { kind: 'RACE' } };
  const stuck = isStuck(racing);
  if (stuck && oracleActive(racing)) events.push({ type: 'STUCK_DETECTED', top: card, controller: player });
  return racing.stuck === stuck ? racing : { ...racing, stuck };
}
