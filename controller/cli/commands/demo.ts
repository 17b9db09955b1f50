/**
 * `zaptable demo`: bots play one game of each game on the pure rules engines and the outcome is printed.
 * A first look at the rules engines alone, without hardware, broker or dashboard (`zaptable start` runs the table).
 */
import { playGame } from '../../bots/play-game.ts';
import { PUBLIC } from '../../rules/common/viewer.ts';
import { GAMES } from '../../rules/games.ts';
import { parse } from '../args.ts';
import { renderTree, type Output } from '../output.ts';

export const demoHelp = `zaptable demo [--seed S]

Bots play one game of each game (${GAMES.map((g) => `${g.title}: ${g.demo.label}`).join('; ')})
with legal moves only, on the pure rules engines. Prints how many actions each game took, who won, and the final
public view (what the dashboard will show).`;

export function demoCommand(argv: readonly string[], io: Output): number {
  const { values } = parse(argv, { seed: { type: 'string' } });
  const seed = values.seed ?? '2026';
  for (const game of GAMES) {
    const { engine, demo } = game;
    const played = playGame(engine, demo.config, seed);
    io.out(`── ${game.id}: ${demo.config.players.join(', ')} (seed ${seed}) ──`);
    io.out(`${played.actionCount} legal actions applied in ${played.result.rounds} rounds`);
    io.out(`winner${played.result.winners.length > 1 ? 's (shared)' : ''}: ${played.result.winners.join(', ')}`);
    io.out(`scores: ${Object.entries(played.result.scores).map(([p, s]) => `${p} ${s}`).join(', ')}`);
    io.out('final public view:');
    for (const line of renderTree(engine.view(played.finalState, PUBLIC), '  ')) io.out(line);
    io.out('');
  }
  io.out('Next: `npx zaptable simulate --game zip-zap --games 1000`, `npx zaptable scenario test/scenarios`,');
  io.out('or `npx zaptable --help` for every command.');
  return 0;
}
