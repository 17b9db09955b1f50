import { describe, expect, it } from 'vitest';
import { HIDDEN_REASON, type PublicRefusal } from '../../../controller/rules/common/spectator.ts';
import { killer21Engine, type Killer21Action } from '../../../controller/rules/killer-21/index.ts';
import { scenario } from './helpers.ts';

const state = scenario({
  players: ['A', 'B', 'C'], total: 17,
  hands: { A: ['R4-1', 'R6-1'], B: ['R1-1', 'R0-1'], C: ['R2-1'] },
});

/** The refusal of `action` as a requester would see it. */
function published(action: Killer21Action): PublicRefusal {
  const outcome = killer21Engine.apply(state, action);
  if (outcome.ok) throw new Error(`${JSON.stringify(action)} was accepted`);
  return killer21Engine.publicRejection(action, outcome);
}

describe('Killer-21 refusals that leave the process', () => {
  it('says OVER_21 with the card whether or not A holds it, and hides "not held" (rules/common/spectator.ts)', () => {
    // R6-1 is in A's hand, R6-2 is not: 17 + 6 passes 21 either way, which the table sees from the card and the total.
    const held = published({ type: 'play', player: 'A', card: 'R6-1' });
    const notHeldOver = published({ type: 'play', player: 'A', card: 'R6-2' });
    expect(held).toMatchObject({ code: 'OVER_21', card: 'R6-1' });
    expect(notHeldOver).toMatchObject({ code: 'OVER_21', card: 'R6-2' });
    // A card that would fit, not in A's hand: the reason is the hand, so hidden, and the card is not named.
    const notHeld = published({ type: 'play', player: 'A', card: 'R3-1' });
    expect(killer21Engine.apply(state, { type: 'play', player: 'A', card: 'R3-1' })).toMatchObject({ code: 'CARD_NOT_IN_HAND' });
    expect(notHeld).toMatchObject({ code: HIDDEN_REASON, card: null });
    expect(notHeld.message).not.toMatch(/R3|hold|21/);
  });

  it('hides whether a bust was refused because the player could play', () => {
    expect(killer21Engine.apply(state, { type: 'cannot-play', player: 'A' })).toMatchObject({ code: 'CAN_PLAY' });
    expect(published({ type: 'cannot-play', player: 'A' }).code).toBe(HIDDEN_REASON);
  });

  it('hides which registered cards clash with what the table has seen, not who still has to register', () => {
    const dealt = killer21Engine.setup({ players: ['A', 'B'], dealing: 'TABLE' }, 1);
    if (!dealt.ok) throw new Error(dealt.message);
    const b = Array.from({ length: 10 }, (_, i) => `R${i % 8}-${1 + Math.floor(i / 8)}`);
    const registered = killer21Engine.apply(dealt.state, { type: 'register-hand', player: 'B', cards: b });
    if (!registered.ok) throw new Error(registered.message);
    const publish = (action: Killer21Action): { code: string; message: string } => {
      const outcome = killer21Engine.apply(registered.state, action);
      if (outcome.ok) throw new Error(`${JSON.stringify(action)} was accepted`);
      return killer21Engine.publicRejection(action, outcome);
    };
    const clash = publish({ type: 'register-hand', player: 'A', cards: [...b.slice(1), 'R5-5'] });
    expect(clash.code).toBe(HIDDEN_REASON);
    expect(clash.message).not.toMatch(/R\d-\d/);
    expect(publish({ type: 'register-hand', player: 'B', cards: b }).code).toBe('HAND_ALREADY_KNOWN');
    expect(publish({ type: 'play', player: 'A', card: 'R5-5' }).code).toBe('REGISTERING');
  });

  it('keeps refusals decided by public facts', () => {
    expect(published({ type: 'play', player: 'B', card: 'R1-1' }).code).toBe('NOT_YOUR_TURN');
    expect(published({ type: 'play', player: 'Z', card: 'R1-1' }).code).toBe('NOT_A_PLAYER');
    expect(published({ type: 'play', player: 'A', card: 'R9-1' }).code).toBe('UNKNOWN_CARD');
    expect(published({ type: 'respond', player: 'B', card: 'R0-1', at: 5 }).code).toBe('NO_KILLER_WINDOW');
    expect(published({ type: 'next-round' }).code).toBe('ROUND_NOT_OVER');
  });
});
