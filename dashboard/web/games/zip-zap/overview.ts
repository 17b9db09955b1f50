/** Zip-Zap's lines on the overview: the players with their card counts, the round and the mode. */
import type { NameOf } from '../../names.ts';
import type { ZipZapPublicView } from '../../types.ts';
import type { OverviewLine } from '../game-ui.ts';

export function zipOverviewLine(v: ZipZapPublicView, nameOf: NameOf): OverviewLine {
  const mode = v.mode.kind === 'PAUSED' ? `paused (${nameOf(v.mode.controller)}, ${v.mode.cause})` : v.mode.kind.toLowerCase().replace('_', ' ');
  return { game: 'Zip-Zap', players: v.players.map((p) => `${nameOf(p.id)} (${p.handCount})`).join(', '), phase: `round ${v.round}/${v.roundsTotal}, ${mode}` };
}
