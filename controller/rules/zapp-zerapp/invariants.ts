/**
 * `checkInvariants(state)`: the structural truths every reachable state keeps. Property tests call it after
 * every action of random games; an empty list means the state is sound.
 */
import { COLOURS } from './board-spec.ts';
import { isSuccess } from './reveal.ts';
import { placedBarrel } from './round.ts';
import { pieceIdsOf, piecesInCity, type ZappState } from './state.ts';

function checkPieces(state: ZappState, out: string[]): void {
  const n = state.config.board.trackLength;
  const active = new Set(state.players.map((p) => p.colour));
  const expected = new Set<string>();
  for (const c of COLOURS) if (active.has(c)) for (const id of pieceIdsOf(c)) expected.add(id);
  for (const id of expected) if (!(id in state.pieces)) out.push(`piece ${id} is missing (3 pieces per active colour, ZAPP-4)`);
  for (const [id, loc] of Object.entries(state.pieces)) {
    if (!expected.has(id)) out.push(`piece ${id} belongs to no player (unused colours have no pieces, ZAPP-4)`);
    const ok = loc === 'START' || loc === 'CITY' || (Number.isInteger(loc) && loc >= 0 && loc < n);
    if (!ok) out.push(`piece ${id} is at ${JSON.stringify(loc)}, not START, CITY or a field 0..${n - 1}`);
  }
}

function checkBarrels(state: ZappState, out: string[]): void {
  const ids = new Set(state.players.map((p) => p.id));
  const keys = Object.keys(state.barrels);
  if (keys.length !== 13) out.push(`there are ${keys.length} barrel entries, not 13 (ZAPP-1)`);
  const held: Record<string, number> = {};
  const placed: Record<string, number> = {};
  for (let v = 1; v <= 13; v++) {
    const loc = state.barrels[v];
    if (!loc) {
      out.push(`barrel ${v} is nowhere`);
      continue;
    }
    if (loc.at === 'MOUNTAIN') continue;
    if (!ids.has(loc.player)) out.push(`barrel ${v} is with unknown player ${loc.player}`);
    const count = loc.at === 'HELD' ? held : placed;
    count[loc.player] = (count[loc.player] ?? 0) + 1;
  }
  for (const [p, k] of Object.entries(held)) {
    if (k > state.config.maxBarrelsInHand) out.push(`${p} holds ${k} barrels (max ${state.config.maxBarrelsInHand}, ZAPP-22)`);
    if (state.phase !== 'SELECT') out.push(`${p} holds barrels outside SELECT (ZAPP-26)`);
  }
  for (const [p, k] of Object.entries(placed)) if (k > 1) out.push(`${p} has ${k} placed barrels (ZAPP-24)`);
  if (state.phase === 'SELECT') {
    for (const p of Object.keys(placed)) if ((held[p] ?? 0) > 0) out.push(`${p} has placed but still holds barrels (ZAPP-24)`);
  }
  if (state.phase === 'ROLL' || state.phase === 'DONE') {
    if (Object.keys(placed).length > 0) out.push(`barrels are placed in phase ${state.phase}`);
  }
}

function checkPhase(state: ZappState, out: string[]): void {
  const { magic, dice } = state;
  if (dice && magic !== dice.d1 + dice.d2) out.push(`magic ${magic} is not d1 + d2 = ${dice.d1 + dice.d2}`);
  if ((state.phase === 'SELECT' || state.phase === 'MOVE') && magic === null) out.push(`phase ${state.phase} without a magic number`);
  if (state.phase === 'MOVE') {
    if (state.moveQueue.length === 0) out.push('phase MOVE with an empty queue');
    let prev = 14;
    for (const p of state.moveQueue) {
      const v = placedBarrel(state, p);
      if (v === null || magic === null || !isSuccess(v, magic)) out.push(`${p} is in the queue without a successful barrel`);
      else if (v >= prev) out.push(`queue not in descending barrel order at ${p} (ZAPP-30)`);
      prev = v ?? prev;
    }
    for (const p of state.players) {
      if (!state.moveQueue.includes(p.id) && placedBarrel(state, p.id) !== null) out.push(`${p.id} has a placed barrel but no move left (ZAPP-32)`);
    }
  } else if (state.moveQueue.length > 0) out.push(`move queue is not empty in phase ${state.phase}`);
  const won = state.players.filter((p) => piecesInCity(state, p.colour) === 3);
  if (won.length > 1) out.push(`more than one player has 3 pieces in the city: ${won.map((p) => p.id).join(', ')}`);
  const w = won[0];
  if (w && (state.phase !== 'DONE' || state.winner !== w.id)) out.push(`${w.id} has 3 pieces in the city but is not the winner (ZAPP-80)`);
  if (state.phase === 'DONE' && !w) out.push('phase DONE without a player with 3 pieces in the city');
  if (state.claim) {
    if (state.config.banishMode !== 'CLAIM') out.push('a claim window is open in banishMode AUTO');
    for (const id of state.claim.pieces) if (typeof state.pieces[id] !== 'number') out.push(`claimable piece ${id} is not on the track`);
  }
}

/** Every violated invariant of `state`, as a sentence; empty when the state is sound. */
export function checkInvariants(state: ZappState): string[] {
  const out: string[] = [];
  const ids = state.players.map((p) => p.id);
  if (ids.length < 2 || ids.length > 4) out.push(`${ids.length} players; 2 to 4 play`);
  if (new Set(ids).size !== ids.length) out.push('player ids are not unique');
  if (new Set(state.players.map((p) => p.colour)).size !== ids.length) out.push('two players share a colour');
  if (!ids.includes(state.roller)) out.push(`roller ${state.roller} is not a player`);
  checkPieces(state, out);
  checkBarrels(state, out);
  checkPhase(state, out);
  return out;
}
