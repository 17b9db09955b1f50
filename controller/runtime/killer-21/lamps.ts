/**
 * Killer-21's seat lamps: the player on turn is lit; during the Killer window everyone who still has to answer
 * blinks fast (the race is on), a tied zero waiting for the referee blinks slowly; after a round its winners
 * pulse; at the end the winners pulse. While hands dealt at the table are registered (or counted for a tie-break)
 * the seats that still have to lay theirs down blink slowly. Pure.
 */
import type { LampPattern } from '../../hardware/interface.ts';
import type { Killer21State } from '../../rules/killer-21/index.ts';
import { cardsToRegister } from './registration.ts';

export function k21Lamps(state: Killer21State): Record<string, LampPattern> {
  const out: Record<string, LampPattern> = {};
  const w = state.killer;
  const lastRound = state.roundWinners.at(-1) ?? [];
  for (const p of state.players) {
    switch (state.phase) {
      case 'TURN':
        out[p] = state.turn === p ? 'on' : 'off';
        break;
      case 'KILLER': {
        const status = w?.answers[p]?.status;
        out[p] = status === 'PENDING' && !(w?.closed ?? true) ? 'blink-fast' : status === 'TIE' ? 'blink-slow' : 'off';
        break;
      }
      case 'ROUND_OVER':
        out[p] = lastRound.includes(p) ? 'pulse' : 'off';
        break;
      case 'GAME_OVER':
        out[p] = state.winners.includes(p) ? 'pulse' : 'off';
        break;
      case 'DEALING':
      case 'SCORING':
        out[p] = cardsToRegister(state, p) > 0 ? 'blink-slow' : 'off';
        break;
    }
  }
  return out;
}
