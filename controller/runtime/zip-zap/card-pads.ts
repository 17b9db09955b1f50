/**
 * Zip-Zap on the sensor table (rules-spec C.3). Pure decisions from sensor events:
 * - a card read on a seat pad is a play by that seat (a ZAP card tapped is that player's ZAP); a card read at
 *   the pile station is a play by its owner, known from the registered hands, or the start flip;
 * - the seat's ZAP button is the ZAP call (ZIP-42: the buzzer);
 * - plays are not applied one by one as they arrive: they are queued with their landing interval (the tag's
 *   poll window, or its matched slap; the button's stamp; landing-interval.ts) and the runtime applies them as
 *   one `plays` batch: the engine orders them by time, and sends plays whose intervals overlap to the referee
 *   (ZIP-45: "only the first card down counts"; Part C.3);
 * - hand registration (TABLE dealing) and end-of-round scoring collect the cards laid on a pad; the seat's
 *   button (or the expected card count) completes them.
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import type { LandingInterval, PlaySpec, ZipZapState } from '../../rules/zip-zap/index.ts';
import { action, type Intent } from '../intents.ts';
import type { Pads } from '../pads/pad-state.ts';
import { describeItem } from '../registry/items.ts';
import { enrolledItems, lookupTag, type TagRegistry } from '../registry/tag-registry.ts';
import { landingOf } from '../pads/landing-interval.ts';

export interface ZipTableContext {
  readonly seatOfStation: Readonly<Record<StationId, string>>;
  /** The station under the discard pile, if there is one. */
  readonly pileStation?: StationId;
  readonly registry: TagRegistry;
}

/** A play waiting for the arbitration window, with its landing interval. */
export type ZipInput = Intent | {
  readonly kind: 'queue-play';
  readonly play: PlaySpec & Required<LandingInterval>;
  /** The sensor event's station. */
  readonly station: StationId;
};

/** Zip-Zap card ids on a pad. */
export function cardsOnPad(pads: Pads, station: StationId, registry: TagRegistry): string[] {
  return enrolledItems(registry, pads[station]?.tags ?? []).flatMap((item) => (item.kind === 'card' || item.kind === 'zap' ? [item.card] : []));
}

function ownerOf(state: ZipZapState, card: string): string | undefined {
  for (const p of state.players) {
    if (state.handKnown[p] && state.hands[p]?.includes(card)) return p;
  }
  return Object.entries(state.zapOf).find(([, zap]) => zap === card)?.[0];
}

/** How many cards a hand registration expects: the dealt hand plus the ZAP. */
function expectedHand(state: ZipZapState, player: string): number {
  return state.handCounts[player] ?? 0;
}

/** Decisions for one sensor event (`padsAfter` already includes it). */
export function cardEventIntents(state: ZipZapState, padsAfter: Pads, event: SensorEvent, ctx: ZipTableContext): ZipInput[] {
  const at = event.time.hostUs / 1000;
  const player = ctx.seatOfStation[event.station];
  if (event.kind === 'button-pressed') {
    if (player === undefined) return [];
    return buttonIntents(state, padsAfter, event, player, ctx);
  }
  if (event.kind !== 'tag-arrived') return [];
  const item = lookupTag(ctx.registry, event.uid);
  if (!item) return [{ kind: 'notice', code: 'UNKNOWN_TAG', message: `tag ${event.uid} is not enrolled (run zaptable enroll)`, station: event.station }];
  if (item.kind !== 'card' && item.kind !== 'zap') return [{ kind: 'notice', code: 'WRONG_ITEM', message: `${describeItem(item)} on a Zip-Zap pad`, station: event.station }];
  const card = item.card;
  const mode = state.mode.kind;

  if (event.station === ctx.pileStation) {
    if (mode === 'START') return [action({ type: 'flip', card, at })];
    const owner = ownerOf(state, card);
    if (owner === undefined) {
      // Unnamed: naming it would say which registered hands do not hold it (rules/common/spectator.ts).
      return [{ kind: 'notice', code: 'OWNER_UNKNOWN', message: 'a card landed on the pile and the table cannot tell whose it is: play it on your own pad', station: event.station }];
    }
    return [{ kind: 'queue-play', play: { player: owner, card, ...landingOf(event) }, station: event.station }];
  }
  if (player === undefined) return [{ kind: 'notice', code: 'NOT_A_SEAT', message: `${event.station} is not a seat of this table`, station: event.station }];

  if (mode === 'DEALING') {
    const cards = cardsOnPad(padsAfter, event.station, ctx.registry);
    return cards.length === expectedHand(state, player) ? [action({ type: 'register-hand', player, cards, at })] : [];
  }
  if (mode === 'ROUND_OVER') {
    const cards = cardsOnPad(padsAfter, event.station, ctx.registry);
    const pending = state.mode.pending.includes(player);
    return pending && cards.length === expectedHand(state, player) ? [action({ type: 'score-hand', player, cards, at })] : [];
  }
  if (mode === 'START') return [action({ type: 'flip', card, at })];
  if (mode === 'GAME_OVER') return [];
  return [{ kind: 'queue-play', play: { player, card, ...landingOf(event) }, station: event.station }];
}

/** The seat button: ZAP in play; "this is my whole hand" while registering or scoring. */
function buttonIntents(
  state: ZipZapState, pads: Pads, event: SensorEvent, player: string, ctx: ZipTableContext,
): ZipInput[] {
  const station = event.station;
  const at = event.time.hostUs / 1000;
  switch (state.mode.kind) {
    case 'DEALING':
      return [action({ type: 'register-hand', player, cards: cardsOnPad(pads, station, ctx.registry), at })];
    case 'ROUND_OVER':
      if (state.mode.pending.includes(player)) return [action({ type: 'score-hand', player, cards: cardsOnPad(pads, station, ctx.registry), at })];
      return [action({ type: 'next-round', at })];
    case 'RACE':
    case 'PAUSED':
      return [{ kind: 'queue-play', play: { player, zap: true, ...landingOf(event) }, station }];
    case 'START':
    case 'OPEN_START':
    case 'GAME_OVER':
      return [];
  }
}
