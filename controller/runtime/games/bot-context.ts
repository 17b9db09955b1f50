/**
 * What a bot can do at a simulated table (the hands of a person at the table), and a little randomness.
 */
import type { Item } from '../registry/items.ts';

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
  /** The item the bot last put on the station's pad (and has not lifted). */
  padItem(station: string): Item | undefined;
  /** Every item the bots put on the station's pad, in order (Killer-21's chips; optional: only its bot needs it). */
  itemsOn?(station: string): readonly Item[];
  /** The player's position in seat order (0-based). */
  seatIndex?(player: string): number;
  /** The station under the discard pile, if the table has one. */
  readonly pileStation?: string;
  /** How long the pending tie (the plug-in's `refereePending`) has waited for a referee (simulated ms: scaled by the speed); 0 without one. */
  readonly tieWaitedMs: number;
  isOnAnyPad(barrel: number): boolean;
  allPadsClear(): boolean;
  isBot(player: string): boolean;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T | undefined;
}
