/**
 * Which cards can be played now (K21-12, K21-13, K21-40): a blue card always; a red card when the running
 * total plus its value does not pass 21. A red 0 is therefore always playable. A player with no playable
 * card busts (K21-40).
 */
import { redValue } from './cards.ts';

/** The highest running total allowed (K21-12). */
export const LIMIT = 21;

/** Whether `card` can be played on a running total of `total`. */
export function isPlayable(card: string, total: number): boolean {
  const v = redValue(card);
  return v === null || total + v <= LIMIT;
}

/** Whether any card of `hand` can be played on `total`. */
export function hasPlayable(hand: readonly string[], total: number): boolean {
  for (const c of hand) if (isPlayable(c, total)) return true;
  return false;
}
