/**
 * The result of applying an action to a game: either the new state with the events it caused, or a
 * rejection carrying a stable code from the game's catalogue. Rejections are values, never exceptions:
 * an illegal action changes nothing (design principle 1, practice 3).
 */

/** An action was applied. */
export interface Applied<S, E> {
  readonly ok: true;
  /** The new state. The old state is never mutated. */
  readonly state: S;
  /** What happened, in order. Public events carry no hidden information; see each game's `view`. */
  readonly events: readonly E[];
}

/** An action was refused; the state is unchanged. */
export interface Rejection<C extends string = string> {
  readonly ok: false;
  /** A stable code from the game's rejection catalogue (documented in docs/rules-engine.md). */
  readonly code: C;
  /** A human-readable explanation, for logs and the dashboard. Wording may change; codes do not. */
  readonly message: string;
}

export type Outcome<S, E, C extends string = string> = Applied<S, E> | Rejection<C>;

export function applied<S, E>(state: S, events: readonly E[]): Applied<S, E> {
  return { ok: true, state, events };
}

export function reject<C extends string>(code: C, message: string): Rejection<C> {
  return { ok: false, code, message };
}
