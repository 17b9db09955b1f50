/**
 * The recent events as people read a record: in the order things happened at the table, and with the plays that
 * were taken back said as such. Pure (no DOM), unit-tested.
 *
 * Events arrive in the order the controller decided them (`seq`), but a play carries the moment it landed
 * (`at`): the plays a referee's tie ruling applies, or a late line puts in place, are decided after events that
 * happened later. The list is shown by `at`, `seq` breaking ties, so its times never run backwards.
 *
 * A play that a later `TIE_PENDING` or `PLAYS_REORDERED` took back was never played as first published: the
 * list says it was contested (a tie) or taken back (a late line), and marks the play a ruling put first.
 */
import type { PublicEventJson } from './types.ts';

/** How a play event is to be read: taken back for a tie, taken back for a late line, ruled first by the referee. */
export type PlayNote = 'tied' | 'late' | 'ruled-first';

const PLAYS = new Set(['CARD_PLAYED', 'ZAP_PLAYED']);

/** Oldest first by the moment each happened, then by the order they were decided. */
export function inTimeOrder(events: readonly PublicEventJson[]): PublicEventJson[] {
  return [...events].sort((a, b) => (a.at - b.at) || (a.seq - b.seq));
}

interface Landing {
  readonly player: string;
  readonly at: number;
}

function landings(v: unknown): Landing[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Landing => typeof x === 'object' && x !== null
    && typeof (x as Landing).player === 'string' && typeof (x as Landing).at === 'number');
}

/** The notes on the play events (by `seq`), from the events that followed them. */
export function playNotes(events: readonly PublicEventJson[]): ReadonlyMap<number, PlayNote> {
  const notes = new Map<number, PlayNote>();
  const bySeq = [...events].sort((a, b) => a.seq - b.seq);
  bySeq.forEach((e, i) => {
    const takenBack: [Landing[], PlayNote] | undefined = e.type === 'TIE_PENDING' ? [landings(e.contenders), 'tied']
      : e.type === 'PLAYS_REORDERED' ? [landings(e.takenBack), 'late'] : undefined;
    if (takenBack !== undefined) {
      // The last play event before it by that player landing at that moment: the one taken back.
      for (const l of takenBack[0]) {
        const play = bySeq.slice(0, i).findLast((p) => PLAYS.has(p.type) && p.player === l.player && p.at === l.at);
        if (play !== undefined && !notes.has(play.seq)) notes.set(play.seq, takenBack[1]);
      }
    }
    if (e.type === 'TIE_RESOLVED') {
      const first = bySeq.slice(i + 1).find((p) => PLAYS.has(p.type) && p.player === e.first);
      if (first !== undefined) notes.set(first.seq, 'ruled-first');
    }
  });
  return notes;
}
