/**
 * The table half of a game plug-in: what a game needs at the sensor table. Its rules half (engine, options,
 * public events, tools) is the GameDefinition in rules/game-definition.ts; the registry of table halves is
 * tables.ts. Both halves carry the same `id`.
 */
import type { GameId } from '../../rules/engine.ts';
import type { TagRegistry } from '../registry/tag-registry.ts';
import type { BotContext, BotSeat } from './bot-context.ts';
import type { TableContext, TableGame } from './table-game.ts';

/** What a pad holds right now (for the health topic's live reading). */
export interface PadSnapshot {
  readonly grams: number | null;
  readonly tags: readonly string[];
}

/** One legal action as the engine lists it, for bots. */
export type LegalAction = Readonly<Record<string, unknown>>;

export interface TablePlugin {
  readonly id: GameId;
  /** The game's table adapter: sensor events → actions, follow-ups, timers, lamps. */
  table(ctx: TableContext): TableGame;
  /** Whether what lies on a seat pad may be secret now: its live reading is then withheld from the health topic. */
  padSecret(pad: PadSnapshot, state: unknown, registry: TagRegistry): boolean;
  /**
   * The cards the public state shows face up on the pile (played, or flipped), for the pile station's live
   * reading: a card there is named only while it is one of these (rules/common/spectator.ts).
   */
  faceUp(state: unknown): readonly string[];
  /** One turn of a bot seated at a simulated table (it acts through the simulated hardware, like a person). */
  bot(state: unknown, seat: BotSeat, ctx: BotContext, legal: readonly LegalAction[]): void;
  /** Whether the state waits for a referee (a tie): bots stand in after a while, so a demo goes on. */
  refereePending(state: unknown): boolean;
}
