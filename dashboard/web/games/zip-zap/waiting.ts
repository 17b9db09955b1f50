/**
 * What a Zip-Zap table waits for, in words, from the public view alone: who may play now, whose hand is still
 * to be scored, that the referee must flip or deal. Seats played from the simulator panel (not bots) are named
 * as "you", so a person sitting in for a seat sees when the table waits for them (a demo table used to wait
 * minutes for a human seat with no hint).
 */
import type { NameOf } from '../../names.ts';
import type { ZipZapPublicView } from '../../types.ts';

export interface WaitingLine {
  readonly text: string;
  /** The players the table waits for (empty: anybody, or the referee). */
  readonly players: readonly string[];
}

export function zipWaitingFor(view: ZipZapPublicView, nameOf: NameOf, humans: ReadonlySet<string> = new Set()): WaitingLine {
  const who = (ids: readonly string[]): string => ids.map((id) => `${nameOf(id)}${humans.has(id) ? ' (you, at the simulator)' : ''}`).join(', ');
  const m = view.mode;
  if (view.tie !== null) return { text: 'Waiting for the referee: two plays tied, who landed first?', players: [] };
  switch (m.kind) {
    case 'DEALING': return { text: 'Waiting for every hand to be registered: lay your cards on your pad and press your button', players: [] };
    case 'START': return { text: 'Waiting for the start card: turn a card from the reserve onto the pile (referee: Flip start card)', players: [] };
    case 'OPEN_START': return { text: 'Waiting for anyone to open with a number card', players: [] };
    case 'RACE': return { text: 'Waiting for anyone who can follow the top card; if nobody can, the referee announces stuck', players: [] };
    case 'PAUSED': return { text: `Waiting for ${who([m.controller])} to play any card (in control)`, players: [m.controller] };
    case 'ROUND_OVER':
      return m.pending.length > 0
        ? { text: `Waiting for hands to be scored: ${who(m.pending)} (lay the cards left on your pad, press your button)`, players: m.pending }
        : { text: 'Waiting for the next round (referee: Next round, or any seat button)', players: [] };
    case 'GAME_OVER': return { text: 'The game is over', players: [] };
  }
}
