/**
 * The one public rule (controller/rules/common/spectator.ts) on its own: what a refusal may say, and whether a
 * pad reading may be published, from the facts a game gives.
 */
import { describe, expect, it } from 'vitest';
import { reject } from '../../controller/kernel/result.ts';
import { HIDDEN_REASON, padReadingIsPublic, publicRefusal, type RefusalRules } from '../../controller/rules/common/spectator.ts';

const RULES: RefusalRules = {
  hiddenActions: { play: ['WRONG_PHASE', 'DOES_NOT_FOLLOW'] },
  cardReasons: ['DOES_NOT_FOLLOW'],
  catalogue: { WRONG_PHASE: 'Not now.', DOES_NOT_FOLLOW: 'The card does not follow.', CARD_NOT_IN_HAND: 'Not held.' },
};

describe('publicRefusal', () => {
  it('names the card with a public reason about it', () => {
    expect(publicRefusal(RULES, { action: { type: 'play', card: 'Y8' }, rejection: reject('DOES_NOT_FOLLOW', 'Y8 does not follow Y3') }))
      .toEqual({ code: 'DOES_NOT_FOLLOW', message: 'Y8 does not follow Y3', reason: 'The card does not follow.', card: 'Y8' });
  });

  it('hides a reason that is not a public gate, and never names its card', () => {
    const out = publicRefusal(RULES, { action: { type: 'play', card: 'Y8' }, rejection: reject('CARD_NOT_IN_HAND', 'ana does not hold Y8') });
    expect(out).toMatchObject({ code: HIDDEN_REASON, card: null });
    expect(JSON.stringify(out)).not.toMatch(/Y8|hold/);
  });

  it('keeps a public reason that is not about the card, in words that do not name it', () => {
    expect(publicRefusal(RULES, { action: { type: 'play', card: 'Y8' }, rejection: reject('WRONG_PHASE', 'Y8 touched the pile while dealing') }))
      .toEqual({ code: 'WRONG_PHASE', message: 'Not now.', reason: 'Not now.', card: null });
  });

  it('leaves an action that touches nothing hidden as it is', () => {
    expect(publicRefusal(RULES, { action: { type: 'roll' }, rejection: reject('PADS_NOT_CLEAR', 'a barrel on seat-1') }))
      .toEqual({ code: 'PADS_NOT_CLEAR', message: 'a barrel on seat-1', reason: 'PADS_NOT_CLEAR', card: null });
  });
});

describe('padReadingIsPublic', () => {
  const faceUp = new Set(['Y3']);
  it('names a pile card only while the public pile holds it; a seat pad as its game says', () => {
    expect(padReadingIsPublic({ place: 'pile', card: 'Y3', faceUp, seatMayBeSecret: false })).toBe(true);
    expect(padReadingIsPublic({ place: 'pile', card: 'Y8', faceUp, seatMayBeSecret: false })).toBe(false);
    expect(padReadingIsPublic({ place: 'pile', card: null, faceUp, seatMayBeSecret: false })).toBe(true);
    expect(padReadingIsPublic({ place: 'seat', card: 'Y3', faceUp, seatMayBeSecret: true })).toBe(false);
    expect(padReadingIsPublic({ place: 'seat', card: null, faceUp, seatMayBeSecret: false })).toBe(true);
  });
});
