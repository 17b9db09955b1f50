/** Zapp Zerapp's lines on the overview: the variant, the players, the round and phase (or who won). */
import type { NameOf } from '../../names.ts';
import type { ZappView } from '../../types.ts';
import type { OverviewLine } from '../game-ui.ts';

export function zappOverviewLine(v: ZappView, nameOf: NameOf): OverviewLine {
  const phase = v.winner !== null ? `won by ${nameOf(v.winner)}` : `round ${v.round}, ${v.phase.toLowerCase()}${v.magic === null ? '' : `, magic ${v.magic}`}`;
  return { game: `Zapp Zerapp (${v.variant.toLowerCase()})`, players: v.players.map((p) => nameOf(p.id)).join(', '), phase };
}
