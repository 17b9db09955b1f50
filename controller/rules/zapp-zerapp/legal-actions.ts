/**
 * `legalActions`: every action that would be accepted now, for bots, tests and the dashboard. Left out on
 * purpose: `enter-dice` (external input: the physical dice), `report-violation` (always accepted; it records
 * what people saw) and reveal-by-timeout (needs a time). CLAIM lists claiming everything claimable and each
 * piece alone, not every subset. A uniformly random bot always finishes: SELECT offers `place` for every
 * player still choosing, and MOVE always has a move (ZAPP-49).
 */
import type { ZappAction } from './actions.ts';
import { heldBarrels } from './barrels.ts';
import { describeMoves, moveActions } from './move-options.ts';
import { placedBarrel } from './round.ts';
import type { ZappState } from './state.ts';

function claimActions(state: ZappState): ZappAction[] {
  const w = state.claim;
  if (!w) return [];
  const out: ZappAction[] = [{ type: 'claim', player: w.player, pieces: w.pieces }];
  if (w.pieces.length > 1) for (const p of w.pieces) out.push({ type: 'claim', player: w.player, pieces: [p] });
  return out;
}

function selectActions(state: ZappState): ZappAction[] {
  const out: ZappAction[] = [];
  const mountain: number[] = [];
  for (let v = 1; v <= 13; v++) if (state.barrels[v]?.at === 'MOUNTAIN') mountain.push(v);
  let waiting = false;
  for (const { id: player } of state.players) {
    if (placedBarrel(state, player) !== null) continue;
    waiting = true;
    const held = heldBarrels(state, player);
    for (const barrel of held) out.push({ type: 'place', player, barrel });
    for (const barrel of mountain) out.push({ type: 'place', player, barrel });
    if (held.length < state.config.maxBarrelsInHand) for (const barrel of mountain) out.push({ type: 'pick-up', player, barrel });
    for (const barrel of held) out.push({ type: 'put-back', player, barrel });
  }
  if (!waiting) out.push({ type: 'reveal' });
  return out;
}

/** Every acceptable action now (see the module comment for what is deliberately left out). */
export function legalActions(state: ZappState): ZappAction[] {
  switch (state.phase) {
    case 'DONE':
      return [];
    case 'ROLL': {
      const rollers = state.config.rollerPolicy === 'ROTATE' ? [state.roller] : state.players.map((p) => p.id);
      return [...rollers.map((player): ZappAction => ({ type: 'roll', player })), ...claimActions(state)];
    }
    case 'SELECT':
      return selectActions(state);
    case 'MOVE': {
      const player = state.moveQueue[0];
      if (player === undefined) return [];
      const out: ZappAction[] = [];
      const cap = state.config.maxCarryCombinations;
      for (const option of describeMoves(state, player)) out.push(...moveActions(player, option, cap));
      if (!state.config.moveMandatory) out.push({ type: 'pass', player });
      return [...out, ...claimActions(state)];
    }
  }
}
