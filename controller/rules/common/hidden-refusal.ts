/**
 * Refusals as they may leave the process (design principle 2). A refusal is answered to whoever sent the
 * action and announced on the public event stream, so its code and message must not depend on hidden facts:
 * probing `play` card by card must not tell `CARD_NOT_IN_HAND` from `DOES_NOT_FOLLOW`, and a refused `place`
 * must not say which seat chose the barrel. Each engine lists, per action that touches hidden information, the
 * refusals decided by public facts alone and checked before any hidden one; every other refusal of that
 * action leaves as `HIDDEN_REASON`. The true code and message stay in the event log.
 */
import type { Rejection } from './outcome.ts';

/** The one code a refusal that depends on hidden information is published with. */
export const HIDDEN_REASON = 'HIDDEN_REASON';

/** What a refusal may say outside the process. */
export interface PublicRefusal {
  readonly code: string;
  readonly message: string;
}

/**
 * `rejection` as it may be published for an action of type `type`: unchanged when the action touches nothing
 * hidden or the code is one of its public gates, otherwise `HIDDEN_REASON` with a message naming only the type.
 */
export function publicRefusalOf(
  hiddenActions: Readonly<Record<string, readonly string[]>>, type: unknown, rejection: Rejection,
): PublicRefusal {
  const gates = typeof type === 'string' && Object.hasOwn(hiddenActions, type) ? hiddenActions[type] : undefined;
  if (gates === undefined || gates.includes(rejection.code)) return { code: rejection.code, message: rejection.message };
  return {
    code: HIDDEN_REASON,
    message: `${String(type)} refused for a reason that depends on hidden information (the referee finds it in the event log)`,
  };
}
