/**
 * Zip-Zap events as they are published (`toPublicEvent`, design principle 2, rules/common/spectator.ts): a play
 * refused inside a batch says no more than a refused request would. "Not in the hand" is hidden and the card
 * unnamed; "does not follow" follows from the card and the face-up top card, is checked before the hand, and is
 * published with the card; a refusal decided by public facts that are not about the card (the pause's
 * controller) keeps its code and does not name the card.
 */
import { describe, expect, it } from 'vitest';
import { HIDDEN_REASON } from '../../../controller/rules/common/spectator.ts';
import { toPublicEvent, zipZapEngine, type ZipZapEvent, type ZipZapState } from '../../../controller/rules/zip-zap/index.ts';

const rejected = (code: string, message: string): ZipZapEvent => ({ type: 'PLAY_REJECTED', player: 'B', card: 'R5', code, message, at: 10 });

describe('PLAY_REJECTED in public', () => {
  it('hides a card not held, and names a card that does not follow with its reason', () => {
    const notHeld = toPublicEvent(rejected('CARD_NOT_IN_HAND', 'B does not hold R5'));
    expect(notHeld).toMatchObject({ type: 'PLAY_REJECTED', player: 'B', card: null, code: HIDDEN_REASON });
    expect(JSON.stringify(notHeld)).not.toMatch(/R5|hold|follow/);
    const noFollow = toPublicEvent(rejected('DOES_NOT_FOLLOW', 'R5 does not follow Y7'));
    expect(noFollow).toMatchObject({ card: 'R5', code: 'DOES_NOT_FOLLOW', message: 'R5 does not follow Y7' });
  });

  it('refuses a card that does not follow the top DOES_NOT_FOLLOW whether or not the hand holds it', () => {
    const setup = zipZapEngine.setup({ players: ['A', 'B'] }, 7);
    if (!setup.ok) throw new Error(setup.message);
    const state: ZipZapState = setup.state;
    const top = state.pile.at(-1)?.card;
    const refused = (player: string, card: string): boolean => !zipZapEngine.apply(state, { type: 'play', player, card }).ok;
    const held = state.hands.A?.find((c) => !c.startsWith('Z') && refused('A', c));
    const notHeld = state.hands.B?.find((c) => !c.startsWith('Z') && refused('B', c));
    if (top === undefined || held === undefined || notHeld === undefined) throw new Error('seed 7: both hold a card that cannot follow');
    // A plays their own card that does not follow, then B's card that does not follow: the same public verdict.
    expect(zipZapEngine.apply(state, { type: 'play', player: 'A', card: held })).toMatchObject({ code: 'DOES_NOT_FOLLOW' });
    expect(zipZapEngine.apply(state, { type: 'play', player: 'A', card: notHeld })).toMatchObject({ code: 'DOES_NOT_FOLLOW' });
  });

  it('keeps a refusal decided by public facts, in the catalogue\'s words', () => {
    const paused = toPublicEvent(rejected('NOT_CONTROLLER', 'play is paused (ZAP); only A may play, not B with R5'));
    expect(paused).toMatchObject({ code: 'NOT_CONTROLLER', card: null });
    expect(JSON.stringify(paused)).not.toContain('R5');
  });
});
