/**
 * ZIP-20..23: which card may follow which in the race, and who at the table could follow the top card.
 * "Who could follow" is only computable from known hands; callers check `allHandsKnown` first.
 */
import { cardInfo, followersOf } from './cards.ts';
import { refuse, type ZipRejection } from './rejections.ts';
import { handOf, topOf, type PlayRecord, type ZipZapState } from './state.ts';

/** Why `card` may not follow `top` in RACE (ZIP-20..22), or null when it may. */
export function followRejection(top: PlayRecord | undefined, card: string): ZipRejection | null {
  if (top === undefined) return refuse('DOES_NOT_FOLLOW', 'there is no card on the pile to follow');
  const t = cardInfo(top.card);
  if (t?.kind === 'ZAP') return refuse('NOTHING_FOLLOWS_ZAP', `${top.card} is a ZAP; nothing follows a ZAP (ZIP-22)`);
  if (t?.kind === 'NUMBER' && t.value === 10) return refuse('NOTHING_FOLLOWS_TEN', `${top.card} is a 10; nothing follows a 10 (ZIP-21)`);
  if (followersOf(top.card).includes(card)) return null;
  return refuse('DOES_NOT_FOLLOW', `${card} does not follow ${top.card}: it needs the next number in the same suit or a wild suit (ZIP-20)`);
}

/** The players whose known hand holds a card that follows `topCard`, in seat order. */
export function playersWhoCanFollow(state: ZipZapState, topCard: string): string[] {
  const followers = followersOf(topCard);
  if (followers.length === 0) return [];
  const out: string[] = [];
  for (const p of state.players) {
    const hand = handOf(state, p);
    for (const c of followers) {
      if (hand.includes(c)) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

/** True when some known hand holds a card that follows `topCard`. */
export function anyoneCanFollow(state: ZipZapState, topCard: string): boolean {
  const followers = followersOf(topCard);
  if (followers.length === 0) return false;
  for (const p of state.players) {
    const hand = handOf(state, p);
    for (const c of followers) if (hand.includes(c)) return true;
  }
  return false;
}

/**
 * ZIP-32 as ORACLE sees it: in RACE, the top card was played by someone, every hand is known, and no hand
 * holds a card that follows it. (A flipped top never gets stuck: ZIP-11 flips again instead.)
 */
export function isStuck(state: ZipZapState): boolean {
  if (state.mode.kind !== 'RACE') return false;
  const top = topOf(state);
  if (top === undefined || top.by === null) return false;
  for (const p of state.players) if (state.handKnown[p] !== true) return false;
  return !anyoneCanFollow(state, top.card);
}
