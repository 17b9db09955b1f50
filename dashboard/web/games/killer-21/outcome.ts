/**
 * What became of a simulated action. A `simulate` request is answered when the simulated station has sent its
 * lines; what the table made of them arrives afterwards as events (docs/mqtt.md): the game's events when the
 * engine applied the action, `ACTION_REFUSED` with the refusal's code when it refused it, a `NOTICE` when the
 * table read something it could not use (an unknown tag, a chip count that does not match the lives). So the
 * panel shows the request's answer only while it waits, then the first such events after the request.
 * Pure: the caller passes the table's events.
 */
import type { PublicEventJson } from '../../types.ts';
import { describeK21Event, refusedLine, type Namer } from './text.ts';

/** What the panel shows for the action it sent (not a rules `Outcome`: this is read back from the public events). */
export type PanelOutcome =
  | { readonly kind: 'pending' }
  | { readonly kind: 'applied'; readonly text: string }
  | { readonly kind: 'refused'; readonly code: string; readonly text: string }
  | { readonly kind: 'notice'; readonly code: string; readonly text: string };

/** Events that tell nothing about one action by themselves (the turn moving on follows every play). */
const FOLLOW_UPS = new Set(['TURN_STARTED']);

/** At most this many events are named in one outcome line (a Killer settlement can cause a dozen). */
const MAX_NAMED = 4;

/**
 * The outcome of the action sent when the table's last event was `afterSeq`: the first refusal or notice after
 * it, or the game events after it (the first few named), or pending while none has arrived. `actor`: whose
 * action the table made of it (the player on turn for a card on the pile), named in a refusal.
 */
export function outcomeAfter(
  events: readonly PublicEventJson[], afterSeq: number, n: Namer = (p) => p, actor?: string,
): PanelOutcome {
  const after = events.filter((e) => e.seq > afterSeq);
  const first = after[0];
  if (first === undefined) return { kind: 'pending' };
  if (first.type === 'ACTION_REFUSED') {
    const code = String(first.code);
    return { kind: 'refused', code, text: refusedLine(String(first.action), code, typeof first.message === 'string' ? first.message : undefined, actor) };
  }
  if (first.type === 'NOTICE') return { kind: 'notice', code: String(first.code), text: describeK21Event(first, n) };
  const named = after.filter((e) => e.type !== 'ACTION_REFUSED' && e.type !== 'NOTICE');
  const shown = named.filter((e) => !FOLLOW_UPS.has(e.type));
  const lines = (shown.length > 0 ? shown : named).slice(0, MAX_NAMED).map((e) => describeK21Event(e, n));
  return { kind: 'applied', text: lines.join('; ') };
}
