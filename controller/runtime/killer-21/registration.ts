/**
 * Registering hands dealt at the table (docs/rules/killer-21.md C-K.3, K21-91, K21-97): right after a table
 * deal (DEALING), or for a tie-break on unseen hands (SCORING), a player lays their cards on their own seat pad.
 * The pad's reader names them; once as many lie there as the engine expects, they are sent as `register-hand`.
 * The seat's ZAP button sends what lies there at once ("this is my hand"), so a wrong count gets its answer
 * (WRONG_COUNT with the numbers) instead of silence.
 */
import type { StationId } from '../../hardware/interface.ts';
import { hiddenIn, type Killer21State } from '../../rules/killer-21/index.ts';
import { action, type Intent } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import { enrolledItems, type TagRegistry } from '../registry/tag-registry.ts';

/** The Killer-21 cards lying on a pad (chips are not cards), in the order they were laid. */
export function k21CardsOnPad(pads: Pads, station: StationId, registry: TagRegistry): string[] {
  return enrolledItems(registry, pads[station]?.tags ?? []).flatMap((item) => (item.kind === 'k21' ? [item.card] : []));
}

/** How many unseen cards `player` has to lay down now (0: nothing to register). */
export function cardsToRegister(state: Killer21State, player: string): number {
  if (state.phase === 'DEALING') return hiddenIn(state, player);
  if (state.phase === 'SCORING') return state.scoring?.pending[player] ?? 0;
  return 0;
}

/**
 * The cards on `player`'s pad that are offered as their unseen cards: what lies there without the cards the
 * engine already knows to be elsewhere than among them. In a tie-break the player lays down the whole hand, but
 * the engine wants only its unseen part (K21-97), so the hand's known cards are left out; a card on the pile
 * (played from this pad without a pile station, or a red 0 put there for the Killer) may still lie there and is
 * left out too. In DEALING neither exists (nothing is known yet). A card the engine knows in another hand stays
 * in, so that the engine's BAD_HAND says what is wrong.
 */
function offered(state: Killer21State, pads: Pads, station: StationId, player: string, registry: TagRegistry): string[] {
  const known = new Set([...(state.hands[player] ?? []), ...state.pile.map((r) => r.card)]);
  return k21CardsOnPad(pads, station, registry).filter((c) => !known.has(c));
}

/** A card landed on `player`'s pad while hands are registered: register once the count is complete. */
export function registrationByPad(
  state: Killer21State, pads: Pads, station: StationId, player: string, registry: TagRegistry, at: number,
): Intent[] {
  const count = cardsToRegister(state, player);
  const cards = offered(state, pads, station, player, registry);
  return count > 0 && cards.length === count ? [action({ type: 'register-hand', player, cards, at })] : [];
}

/** The ZAP button while hands are registered: "these are my cards". */
export function registrationByButton(
  state: Killer21State, pads: Pads, station: StationId, player: string, registry: TagRegistry, at: number,
): Intent[] {
  if (cardsToRegister(state, player) === 0) return [];
  return [action({ type: 'register-hand', player, cards: offered(state, pads, station, player, registry), at })];
}
