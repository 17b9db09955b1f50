/**
 * Zip-Zap events as they are published (`toPublicEvent`, design principle 2): a play refused inside a batch says
 * no more than a refused request would (public-refusal.ts). Probing with plays must not tell "not in the hand"
 * from "in the hand but does not follow", and never names the card; a refusal decided by public facts (the
 * pause's controller) keeps its code.
 */
import { describe, expect, it } from 'vitest';
import { HIDDEN_REASON } from '../../../controller/rules/common/hidden-refusal.ts';
import { toPublicEvent, type ZipZapEvent } from '../../../controller/rules/zip-zap/index.ts';

const rejected = (code: string, message: string): ZipZapEvent => ({ type: 'PLAY_REJECTED', player: 'B', card: 'R5', code, message, at: 10 });

describe('PLAY_REJECTED in public', () => {
  it('is the same for a card not held and a card that does not follow', () => {
    const notHeld = toPublicEvent(rejected('CARD_NOT_IN_HAND', 'B does not hold R5'));
    const noFollow = toPublicEvent(rejected('DOES_NOT_FOLLOW', 'R5 does not follow Y7'));
    expect(notHeld).toEqual(noFollow);
    expect(notHeld).toMatchObject({ type: 'PLAY_REJECTED', player: 'B', card: null, code: HIDDEN_REASON });
    expect(JSON.stringify(notHeld)).not.toMatch(/R5|hold|follow/);
  });

  it('keeps a refusal decided by public facts, in the catalogue\'s words', () => {
    const paused = toPublicEvent(rejected('NOT_CONTROLLER', 'play is paused (ZAP); only A may play, not B with R5'));
    expect(paused).toMatchObject({ code: 'NOT_CONTROLLER', card: null });
    expect(JSON.stringify(paused)).not.toContain('R5');
  });
});
