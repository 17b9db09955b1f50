/**
 * Killer-21 on the sensor table (docs/rules/killer-21.md Part C-K). Pure decisions from sensor events:
 * - turns are sequential, so a card that lands on the pile station during P's turn is P's play; a card laid on
 *   a seat pad is that seat's play (the engine refuses it publicly when it is not their turn);
 * - the Killer race: a red 0 on a seat pad is that seat's answer, with its honest landing interval
 *   (`respond {at, uncertaintyMs}`: the tag's poll window or its matched slap, widened by the clock mapping,
 *   pads/landing-interval.ts); the engine judges each zero against the deadline, and a zero whose interval
 *   straddles it waits for the referee (ZERO_TIED, K21-34). A zero on the pile counts only when exactly one
 *   player still has to answer (otherwise nobody can tell whose it is); a zero whose line came before the
 *   Killer's is sent once the window opens (early-zeros.ts);
 * - the seat's ZAP button is "I can't" (`cannot-play`): a bust on the player's turn, "I have no red 0" in a
 *   Killer window; after a round it deals the next one;
 * - chips on a seat pad are counted against the engine's lives (chips.ts);
 * - cards dealt at the table (`dealing: TABLE`): a hand laid on its seat pad is registered (registration.ts).
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import { isRedZero, type Killer21State } from '../../rules/killer-21/index.ts';
import { action, type Intent } from '../intents.ts';
import { landingOf } from '../pads/landing-interval.ts';
import type { Pads } from '../pads/pad-state.ts';
import { describeItem } from '../registry/items.ts';
import { lookupTag, type TagRegistry } from '../registry/tag-registry.ts';
import { chipIntents, type ChipSettings } from './chips.ts';
import { registrationByButton, registrationByPad } from './registration.ts';

export interface Killer21TableContext {
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  /** The station under the discard pile, if there is one. */
  readonly pileStation?: StationId;
  readonly registry: TagRegistry;
  readonly chips: ChipSettings;
}

/** Who still has to answer the open Killer window. */
function pendingAnswers(state: Killer21State): string[] {
  const w = state.killer;
  if (state.phase !== 'KILLER' || w === null || w.closed) return [];
  return w.required.filter((p) => w.answers[p]?.status === 'PENDING');
}

/** A card's landing as the engine takes it: the middle of its interval and the half width (K21-33). */
function landed(event: SensorEvent): { at: number; uncertaintyMs: number } {
  const landing = landingOf(event);
  return { at: landing.at, uncertaintyMs: Math.max(0, (landing.atLatest - landing.atEarliest) / 2) };
}

/** A red 0 answering the Killer, with its landing interval. */
export function respond(player: string, card: string, event: SensorEvent): Intent {
  return action({ type: 'respond', player, card, ...landed(event) });
}

function buttonIntents(
  state: Killer21State, pads: Pads, event: SensorEvent, player: string, ctx: Killer21TableContext,
): Intent[] {
  const at = event.time.hostUs / 1000;
  switch (state.phase) {
    case 'DEALING':
    case 'SCORING':
      return registrationByButton(state, pads, event.station, player, ctx.registry, at);
    case 'TURN':
    case 'KILLER':
      return [action({ type: 'cannot-play', player, at })];
    case 'ROUND_OVER':
      return [action({ type: 'next-round', at })];
    case 'GAME_OVER':
      return [];
  }
}

/**
 * A card on the pile station. Its notices never name it: the reader reads a tag through a card's back, and a
 * card that is not played goes back to a hand (rules/common/spectator.ts).
 */
function pileCard(state: Killer21State, card: string, event: SensorEvent): Intent[] {
  // A play carries its landing interval: the Killer's is the start of the window its zeros are judged against.
  if (state.phase === 'TURN' && state.turn !== null) return [action({ type: 'play', player: state.turn, card, ...landed(event) })];
  if (state.phase === 'KILLER') {
    const pending = pendingAnswers(state);
    const [only] = pending;
    if (isRedZero(card) && pending.length === 1 && only !== undefined) return [respond(only, card, event)];
    return [{
      kind: 'notice', code: 'OWNER_UNKNOWN', station: event.station,
      message: 'a card landed on the pile during the Killer: put a red 0 on your own pad, so the table knows whose it is',
    }];
  }
  // Hands are registered on the seat pads only (the pile cannot tell whose a card is): say so, change nothing.
  if (state.phase === 'DEALING') {
    return [{
      kind: 'notice', code: 'REGISTERING', station: event.station,
      message: 'a card landed on the pile while hands are registered: lay your hand on your own pad, or skip registration',
    }];
  }
  if (state.phase === 'SCORING') {
    return [{
      kind: 'notice', code: 'REGISTERING', station: event.station,
      message: 'a card landed on the pile during the tie-break: the tied players lay their hands on their own pads',
    }];
  }
  return [];
}

function seatCard(
  state: Killer21State, card: string, event: SensorEvent, player: string, pads: Pads, ctx: Killer21TableContext,
): Intent[] {
  switch (state.phase) {
    case 'KILLER':
      return [respond(player, card, event)];
    case 'TURN':
      return [action({ type: 'play', player, card, ...landed(event) })];
    case 'DEALING':
    case 'SCORING':
      return registrationByPad(state, pads, event.station, player, ctx.registry, event.time.hostUs / 1000);
    case 'ROUND_OVER':
    case 'GAME_OVER':
      return [];
  }
}

/** Decisions for one sensor event (`padsAfter` already includes it, `padsBefore` does not). */
export function k21EventIntents(
  state: Killer21State, padsAfter: Pads, event: SensorEvent, padsBefore: Pads, ctx: Killer21TableContext,
): Intent[] {
  const player = ctx.seatOfStation[event.station];
  const chips = player === undefined ? [] : chipIntents(state, padsBefore, padsAfter, event, player, ctx.registry, ctx.chips);
  switch (event.kind) {
    case 'button-pressed':
      return player === undefined ? [] : buttonIntents(state, padsAfter, event, player, ctx);
    case 'weight-settled':
    case 'tag-left':
      return chips;
    case 'button-released':
    case 'slap':
      return [];
    case 'tag-arrived':
      break;
  }
  const item = lookupTag(ctx.registry, event.uid);
  if (!item) return [{ kind: 'notice', code: 'UNKNOWN_TAG', message: `tag ${event.uid} is not enrolled (run zaptable enroll)`, station: event.station }];
  if (item.kind === 'chip') return chips;
  if (item.kind !== 'k21') return [{ kind: 'notice', code: 'WRONG_ITEM', message: `${describeItem(item)} on a Killer-21 pad`, station: event.station }];
  if (event.station === ctx.pileStation) return pileCard(state, item.card, event);
  if (player === undefined) return [{ kind: 'notice', code: 'NOT_A_SEAT', message: `${event.station} is not a seat of this table`, station: event.station }];
  return seatCard(state, item.card, event, player, padsAfter, ctx);
}
