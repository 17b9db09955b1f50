/**
 * The result of applying an action to a game: either the new state with the events it caused, or a
 * rejection carrying a stable code from the game's catalogue. Rejections are values, never exceptions:
 * an illegal action changes nothing (design principle 1, practice 3). The rejection is the controller's one
 * refusal shape (`kernel/result.ts`), so a game's refusal crosses the runtime, MQTT and the CLI unchanged.
 */
import type { Ok, Rejection } from '../../kernel/result.ts';

export { reject, type Rejection } from '../../kernel/result.ts';

/** An action was applied: the new state (the old one is never mutated) and what happened, in order. */
export type Applied<S, E> = Ok<{
  /** The new state. The old state is never mutated. */
  readonly state: S;
  /** What happened, in order. Public events carry no hidden information; see each game's `view`. */
  readonly events: readonly E[];
}>;

/** What applying an action to a game comes to: {@link Applied} or a {@link Rejection} with a code from `C`. */
export type Outcome<S, E, C extends string = string> = Applied<S, E> | Rejection<C>;

export function applied<S, E>(state: S, events: readonly E[]): Applied<S, E> {
  return { ok: true, state, events };
}
