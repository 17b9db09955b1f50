import { describe, expect, it } from 'vitest';
import { HIDDEN_REASON } from '../../../controller/rules/common/hidden-refusal.ts';
import { killer21Engine, type Killer21Action } from '../../../controller/rules/killer-21/index.ts';
import { scenario } from './helpers.ts';

const state = scenario({
  players: ['A', 'B', 'C'], total: 17,
  hands: { A: ['R4-1', 'R6-1'], B: ['R1-1', 'R0-1'], C: ['R2-1'] },
});

/** The refusal of `action` as a requester would see it. */
function published(action: Killer21Action): { code: string; message: string } {
  const outcome = killer21Engine.apply(state, action);
  if (outcome.ok) throw new Error(`${JSON.stringify(action)} was accepted`);
  return killer21Engine.publicRejection(action, outcome);
}

describe('Killer-21 refusals that leave the process', () => {
  it('cannot tell a card A does not hold from one that would pass 21: both are HIDDEN_REASON', () => {
    const notHeld = published({ type: 'play', player: 'A', card: 'R7-3' });
    const over = published({ type: 'play', player: 'A', card: 'R6-1' });
    expect(killer21Engine.apply(state, { type: 'play', player: 'A', card: 'R7-3' })).toMatchObject({ code: 'CARD_NOT_IN_HAND' });
    expect(killer21Engine.apply(state, { type: 'play', player: 'A', card: 'R6-1' })).toMatchObject({ code: 'OVER_21' });
    expect(notHeld).toEqual(over);
    expect(notHeld.code).toBe(HIDDEN_REASON);
    expect(notHeld.message).not.toMatch(/R6|R7|hold|21/);
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
