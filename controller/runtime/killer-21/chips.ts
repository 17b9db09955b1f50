/**
 * Lives counted from chips (docs/rules/killer-21.md C-K, K21-44/K21-70). The engine's lives are authoritative:
 * after each LIFE_LOST the player takes a chip off their pad, and the pad reads what is left, either by weight
 * (`round((grams − cards × cardGrams) / chipGrams)`, chips of a known mass far heavier than a card) or by
 * counting chip tags. A count that disagrees with the engine is flagged to the referee (CHIPS_MISMATCH), never
 * applied: only the referee corrects lives (by undo or a correction).
 *
 * When a count is checked, so that putting the chips down one by one at the start says nothing:
 * - tags: when a chip leaves the pad (a chip too many taken off), or when more chips lie there than lives;
 * - weight: on every settled weight (a stack is put down at once; a card laid on the pad re-weighs it too).
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import type { Killer21State } from '../../rules/killer-21/index.ts';
import type { Intent } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import { enrolledItems, type TagRegistry } from '../registry/tag-registry.ts';

/** How a table counts chips (`tables[].chips` in the configuration). */
export interface ChipSettings {
  /** `tags`: tagged chips are counted by the pad's reader; `weight`: by the load cell; `off`: not checked. */
  readonly countBy: 'tags' | 'weight' | 'off';
  /** Mass of one chip, for `weight` (g). */
  readonly chipGrams: number;
  /** Mass of one tagged card lying on the pad with the chips (g). */
  readonly cardGrams: number;
}

export const DEFAULT_CHIPS: ChipSettings = { countBy: 'tags', chipGrams: 8.5, cardGrams: 1.8 };

/** The chips and cards a pad's tags name. */
function tagCounts(pads: Pads, station: StationId, registry: TagRegistry): { chips: number; cards: number } {
  const items = enrolledItems(registry, pads[station]?.tags ?? []);
  const chips = items.filter((item) => item.kind === 'chip').length;
  return { chips, cards: items.length - chips };
}

/** The number of chips on a pad as the settings count them, or null when it cannot be told. */
export function chipsOnPad(pads: Pads, station: StationId, registry: TagRegistry, settings: ChipSettings): number | null {
  const counts = tagCounts(pads, station, registry);
  if (settings.countBy === 'tags') return counts.chips;
  if (settings.countBy === 'off') return null;
  const grams = pads[station]?.grams;
  if (grams === null || grams === undefined || settings.chipGrams <= 0) return null;
  return Math.max(0, Math.round((grams - counts.cards * settings.cardGrams) / settings.chipGrams));
}

/** A CHIPS_MISMATCH notice for this sensor event, if the pad's count now disagrees with the engine's lives. */
export function chipIntents(
  state: Killer21State, before: Pads, after: Pads, event: SensorEvent, player: string,
  registry: TagRegistry, settings: ChipSettings,
): Intent[] {
  if (settings.countBy === 'off' || state.phase === 'GAME_OVER') return [];
  const lives = state.lives[player] ?? 0;
  const now = chipsOnPad(after, event.station, registry, settings);
  if (now === null) return [];
  let check: boolean;
  if (settings.countBy === 'weight') check = event.kind === 'weight-settled';
  else {
    const was = chipsOnPad(before, event.station, registry, settings) ?? 0;
    check = (now < was) || (now > was && now > lives);
  }
  if (!check || now === lives) return [];
  const advice = now > lives ? `take ${now - lives} off` : `${lives - now} missing: a referee checks the lives`;
  return [{
    kind: 'notice', code: 'CHIPS_MISMATCH', station: event.station, player,
    message: `${player} has ${lives} ${lives === 1 ? 'life' : 'lives'} but ${now} chip${now === 1 ? '' : 's'} on the pad (${advice})`,
  }];
}
