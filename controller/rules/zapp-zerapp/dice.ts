/**
 * Phase 1, the magic number (ZAPP-10, ZAPP-11): two dice rolled by the engine's seeded generator, or entered
 * by a person who rolled real dice (dice are not sensed, C.2).
 */
import { nextInt, type Rng } from '../../kernel/random.ts';
import type { EnterDiceAction, RollAction } from './actions.ts';
import { closeClaimWindow } from './banishment.ts';
import type { ZappEvent } from './events.ts';
import { fail, type ZappOutcome } from './rejections.ts';
import { findPlayer, type ZappState } from './state.ts';
import { applied } from '../common/outcome.ts';

/** Rolls 2d6 with the seeded generator; returns the dice and the next generator state. */
export function rollDice(rng: Rng): [number, number, Rng] {
  const [a, r1] = nextInt(rng, 6);
  const [b, r2] = nextInt(r1, 6);
  return [a + 1, b + 1, r2];
}

const isDie = (d: number): boolean => Number.isInteger(d) && d >= 1 && d <= 6;

/** `roll` / `enter-dice`: opens SELECT with a new magic number. */
export function applyDice(state: ZappState, action: RollAction | EnterDiceAction): ZappOutcome {
  if (state.phase !== 'ROLL') return fail('WRONG_PHASE', `${action.type} is only possible before the barrels are chosen (phase ROLL; now ${state.phase})`);
  const by = action.player ?? null;
  if (by !== null) {
    if (!findPlayer(state, by)) return fail('UNKNOWN_PLAYER', `no player ${by}`);
    // ZAPP-11 [engine]: rotate by seat. Without a player the controller rolls for the seat whose turn it is.
    if (state.config.rollerPolicy === 'ROTATE' && by !== state.roller) {
      return fail('NOT_YOUR_ROLL', `it is ${state.roller}'s turn to roll this round, not ${by}'s`);
    }
  }
  let d1: number;
  let d2: number;
  let rng = state.rng;
  if (action.type === 'roll') {
    [d1, d2, rng] = rollDice(state.rng);
  } else {
    if (!isDie(action.d1) || !isDie(action.d2)) return fail('BAD_DICE', `dice must be 1..6; got ${action.d1} and ${action.d2}`);
    ({ d1, d2 } = action);
  }
  const events: ZappEvent[] = [];
  const base = closeClaimWindow(state, events);
  const magic = d1 + d2;
  events.push({ type: 'DICE_ROLLED', round: state.round, d1, d2, magic, by: by ?? (state.config.rollerPolicy === 'ROTATE' ? state.roller : null),
    source: action.type === 'roll' ? 'ENGINE' : 'ENTERED' });
  return applied({ ...base, rng, phase: 'SELECT', dice: { d1, d2 }, magic, selectStartedAt: action.at ?? null, reveal: null }, events);
}
