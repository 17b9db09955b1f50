/**
 * What each buzzer's lamp shows, so contestants see the result without looking at a screen: armed → pulse
 * (may press), winner → on, locked out (false start, wrong answer, already buzzed) → fast blink, otherwise
 * off. Pure; the runtime sends only changes and refreshes when a penalty runs out.
 */
import type { LampPattern } from '../hardware/interface.ts';
import { entrantOf, holds } from './setup.ts';
import type { BuzzerState } from './types.ts';

/** Lamp pattern per contestant at controller time `nowUs`. */
export function buzzerLamps(state: BuzzerState, nowUs: number): Record<string, LampPattern> {
  const out: Record<string, LampPattern> = {};
  const winners = state.decision?.winners ?? [];
  for (const c of state.setup.contestants) {
    const locked = holds(state.lockouts[c.id], nowUs)
      || (state.setup.oneBuzzPerQuestion && state.questionOpen && state.phase !== 'decided' && state.buzzed.includes(entrantOf(state.setup, c.id)));
    if ((state.phase === 'decided' || state.phase === 'closed') && winners.includes(c.id)) out[c.id] = 'on';
    else if (locked) out[c.id] = 'blink-fast';
    else if (state.phase === 'armed' || state.phase === 'reading') out[c.id] = 'pulse';
    else out[c.id] = 'off';
  }
  return out;
}

/** The next controller time at which a lamp changes by itself (a penalty running out), if any. */
export function nextLampChangeUs(state: BuzzerState, nowUs: number): number | null {
  const ends = Object.values(state.lockouts).map((l) => l.untilUs).filter((u): u is number => u !== null && u > nowUs);
  return ends.length === 0 ? null : Math.min(...ends);
}
