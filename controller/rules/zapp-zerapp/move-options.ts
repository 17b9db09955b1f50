/**
 * Every legal move of a player with its consequences, for the dashboard and the table runtime (pieces are not
 * sensed, C.2: people move them by these instructions), and the matching `move` actions for `legalActions`.
 */
import type { Loc } from './board.ts';
import { putDownLoc } from './carrying.ts';
import type { MoveAction } from './actions.ts';
import { planMove, type MovePlan } from './movement.ts';
import { placedBarrel } from './round.ts';
import { findPlayer, pieceColour, pieceIdsOf, type ZappState } from './state.ts';

/** A piece the move may carry (PRO, ZAPP-63) and where it would be put down. */
export interface CarryOption {
  readonly piece: string;
  /** Where it stands now (a passed carrying field). */
  readonly field: number;
  /** Where it ends up if carried (for an own piece entering the city: the field in front of it). */
  readonly putDown: Loc;
  /** An own piece on a move into the city: it may enter the city too (ZAPP-67). */
  readonly mayEnterCity: boolean;
}

/** One legal move with everything it would do: the plan's piece, fields and steps (`MovePlan`), and its effects. */
export interface MoveOption extends Pick<MovePlan, 'piece' | 'from' | 'to' | 'path' | 'steps' | 'forfeited'> {
  /** Pieces sent to START (ZAPP-50); in CLAIM mode, the pieces the mover may claim (ZAPP-57). */
  readonly banishes: readonly string[];
  /** Pieces passed or caught that stay, with why. */
  readonly spared: readonly { readonly piece: string; readonly reason: 'PROTECTED' | 'OWN' | 'IMMUNE' }[];
  /** PRO: pieces the move may carry; the move action must say yes or no for each (ZAPP-63). */
  readonly carryable: readonly CarryOption[];
  /** Whether the move ends in the city, which wins if it is the third piece (ZAPP-80). */
  readonly entersCity: boolean;
}

function toOption(state: ZappState, plan: MovePlan): MoveOption {
  const banishes: string[] = [];
  const spared: { piece: string; reason: 'PROTECTED' | 'OWN' | 'IMMUNE' }[] = [];
  const carryable: CarryOption[] = [];
  const mover = pieceColour(plan.piece);
  for (const e of plan.encounters) {
    switch (e.verdict) {
      case 'BANISH':
        banishes.push(e.piece);
        break;
      case 'CARRYABLE': {
        const own = pieceColour(e.piece) === mover;
        carryable.push({ piece: e.piece, field: e.field, putDown: putDownLoc(state, plan, e.piece, false),
          mayEnterCity: own && plan.to === 'CITY' });
        break;
      }
      case 'PROTECTED':
      case 'OWN':
      case 'IMMUNE':
        spared.push({ piece: e.piece, reason: e.verdict });
        break;
    }
  }
  return { piece: plan.piece, from: plan.from, to: plan.to, path: plan.path, steps: plan.steps, forfeited: plan.forfeited,
    banishes, spared, carryable, entersCity: plan.to === 'CITY' };
}

/**
 * The legal moves of `player` with their consequences: one per piece not in the city (ZAPP-31, ZAPP-49).
 * `steps` defaults to the player's placed barrel; without one (not a successful mover) the list is empty.
 */
export function describeMoves(state: ZappState, player: string, steps?: number): MoveOption[] {
  const p = findPlayer(state, player);
  const s = steps ?? placedBarrel(state, player);
  if (!p || s === null || s < 1) return [];
  const out: MoveOption[] = [];
  for (const id of pieceIdsOf(p.colour)) {
    if (state.pieces[id] === undefined || state.pieces[id] === 'CITY') continue;
    out.push(toOption(state, planMove(state, id, s)));
  }
  return out;
}

/** One carry decision per carryable piece: not carried, carried, or (own, into the city) carried into the city. */
type Choice = 0 | 1 | 2;

function actionFor(player: string, option: MoveOption, choices: readonly Choice[]): MoveAction {
  if (option.carryable.length === 0) return { type: 'move', player, piece: option.piece };
  const carry: Record<string, boolean> = {};
  const intoCity: Record<string, boolean> = {};
  option.carryable.forEach((c, i) => {
    const choice = choices[i] ?? 0;
    carry[c.piece] = choice !== 0;
    if (c.mayEnterCity && choice !== 0) intoCity[c.piece] = choice === 2;
  });
  return Object.keys(intoCity).length > 0 ? { type: 'move', player, piece: option.piece, carry, intoCity }
    : { type: 'move', player, piece: option.piece, carry };
}

/**
 * The `move` actions for one option: every combination of carry (and into-city) choices while there are at
 * most `cap` of them; beyond that a representative set: carry nothing, carry all (into the city or not), and
 * each piece alone. Every returned action is legal and distinct.
 */
export function moveActions(player: string, option: MoveOption, cap: number): MoveAction[] {
  const radix = option.carryable.map((c): number => (c.mayEnterCity ? 3 : 2));
  const total = radix.reduce((a, b) => a * b, 1);
  if (total <= cap) {
    const out: MoveAction[] = [];
    for (let n = 0; n < total; n++) {
      let rest = n;
      const choices = radix.map((r) => {
        const c = (rest % r) as Choice;
        rest = Math.floor(rest / r);
        return c;
      });
      out.push(actionFor(player, option, choices));
    }
    return out;
  }
  const k = radix.length;
  const out = [actionFor(player, option, radix.map(() => 0)), actionFor(player, option, radix.map(() => 1))];
  if (radix.includes(3)) out.push(actionFor(player, option, radix.map((r) => (r === 3 ? 2 : 1))));
  for (let i = 0; i < k; i++) out.push(actionFor(player, option, radix.map((_, j) => (j === i ? 1 : 0))));
  return out;
}
