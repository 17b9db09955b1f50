/**
 * What a bot can do at a simulated table (the hands of a person at the table), and a little randomness.
 */
import type { Item } from '../../runtime/registry/items.ts';

export interface BotSeat {
  readonly player: string;
  readonly station: string;
}

export interface BotContext {
  place(station: string, item: Item): void;
  lift(station: string, item: Item): void;
  tap(station: string, item: Item): void;
  press(station: string): void;
  /** Applies an engine action as the player's choice (a move picked on the dashboard). */
  act(action: { readonly type: string } & Readonly<Record<string, unknown>>): void;
  padItem(station: string): Item | undefined;
  /** Zip-Zap: the station under the discard pile, if the table has one. */
  readonly pileStation?: string;
  /** Zip-Zap: how long the pending tie has waited for a referee (simulated ms: scaled by the speed); 0 without one. */
  readonly tieWaitedMs: number;
  isOnAnyPad(barrel: number): boolean;
  allPadsClear(): boolean;
  isBot(player: string): boolean;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T | undefined;
}
