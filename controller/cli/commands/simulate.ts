/**
 * `zaptable simulate`: random bots play complete games with legal actions only. Prints throughput
 * (games/s, applied actions/s) and outcome statistics. The same seed always gives the same games; the
 * printed fingerprint (a hash of every game's result) makes that easy to check.
 */
import { playGame, SimulationError } from '../../bots/play-game.ts';
import { GAME_IDS, GAMES, getGame, isGameId } from '../../rules/games.ts';
import type { GameId } from '../../rules/engine.ts';
import { intOption, parse, UsageError } from '../args.ts';
import type { Output } from '../output.ts';

/** "a", "a or b", "a, b or c". */
function either(words: readonly string[]): string {
  return words.length <= 2 ? words.join(' or ') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

const gameLines = GAMES.map((g) => {
  const variants = either(Object.keys(g.simulation.variants).map((v) => (v === g.simulation.defaultVariant ? `${v} (default)` : v)));
  return { players: `${g.id} ${g.seats[0]}-${g.seats[1]}`, variants: `${g.id}: ${variants}` };
});

export const simulateHelp = `zaptable simulate --game ${GAME_IDS.join('|')} [--games N] [--seed S] [--players P] [--variant V]

Random bots play N complete games with legal actions only, on one core. Prints games/s,
applied actions/s (per wall-clock and per CPU second) and outcome statistics. Same seed,
same games (compare the fingerprint).

  --game G          ${GAME_IDS.join(', ')} (required)
  --games N         number of games (default 1000)
  --seed S          seed of the first game; game i uses "S:i" (default 1)
  --players P       players per game (default 4): ${gameLines.map((l) => l.players).join(', ')}
  --variant V       ${gameLines.map((l) => l.variants).join('; ')}
  --json            print the figures as JSON`;

function variantConfig(game: GameId, variant: string | undefined): Readonly<Record<string, unknown>> {
  const sim = getGame(game).simulation;
  const chosen = sim.variants[variant ?? sim.defaultVariant];
  if (chosen === undefined) throw new UsageError(`--variant for ${game} must be ${either(Object.keys(sim.variants))}, got "${variant}"`);
  return chosen;
}

/** FNV-1a over a string, folded into a running 32-bit hash. */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

export interface SimulationFigures {
  game: GameId;
  games: number;
  players: number;
  variant: string;
  seed: string;
  actions: number;
  /** Wall-clock time of the game loop. */
  seconds: number;
  /** CPU time (user + system) the process spent in the loop: what the engine costs on a busy, shared machine. */
  cpuSeconds: number;
  gamesPerSecond: number;
  /** Applied actions per wall-clock second. */
  actionsPerSecond: number;
  /** Applied actions per CPU second. */
  actionsPerCpuSecond: number;
  meanActionsPerGame: number;
  meanRounds: number;
  winShareBySeat: Record<string, number>;
  sharedWins: number;
  meanScoreBySeat: Record<string, number>;
  fingerprint: string;
}

export function simulate(game: GameId, games: number, seed: string, players: number, variant: string | undefined,
  onProgress: (done: number) => void = () => undefined): SimulationFigures {
  const engine = getGame(game).engine;
  const ids = getGame(game).simulation.playerIds.slice(0, players);
  const config = { players: ids, ...variantConfig(game, variant) };
  const wins: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  const scores: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  let actions = 0;
  let rounds = 0;
  let shared = 0;
  let hash = 2166136261;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < games; i++) {
    const played = playGame(engine, config, `${seed}:${i}`, { recordActions: false });
    actions += played.actionCount;
    rounds += played.result.rounds;
    if (played.result.winners.length > 1) shared++;
    for (const w of played.result.winners) wins[w] = (wins[w] ?? 0) + 1 / played.result.winners.length;
    for (const [id, s] of Object.entries(played.result.scores)) scores[id] = (scores[id] ?? 0) + s;
    hash = fnv(hash, JSON.stringify(played.result));
    if ((i + 1) % 250 === 0) onProgress(i + 1);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const perGame = (x: number): number => Math.round((x / games) * 1000) / 1000;
  return {
    game, games, players, variant: variant ?? getGame(game).simulation.defaultVariant, seed,
    actions, seconds: Math.round(seconds * 1000) / 1000, cpuSeconds: Math.round(cpuSeconds * 1000) / 1000,
    gamesPerSecond: Math.round(games / seconds),
    actionsPerSecond: Math.round(actions / seconds),
    actionsPerCpuSecond: Math.round(actions / Math.max(cpuSeconds, 1e-9)),
    meanActionsPerGame: perGame(actions),
    meanRounds: perGame(rounds),
    winShareBySeat: Object.fromEntries(ids.map((id) => [id, perGame(wins[id] ?? 0)])),
    sharedWins: shared,
    meanScoreBySeat: Object.fromEntries(ids.map((id) => [id, perGame(scores[id] ?? 0)])),
    fingerprint: hash.toString(16).padStart(8, '0'),
  };
}

export function simulateCommand(argv: readonly string[], io: Output): number {
  const { values } = parse(argv, {
    game: { type: 'string' }, games: { type: 'string' }, seed: { type: 'string' },
    players: { type: 'string' }, variant: { type: 'string' }, json: { type: 'boolean' },
  });
  if (!isGameId(values.game)) throw new UsageError(`--game must be ${GAME_IDS.join(' or ')}`);
  const game = values.game;
  const games = intOption(values.games, 'games', 1000);
  const [minPlayers, maxPlayers] = getGame(game).seats;
  const players = intOption(values.players, 'players', 4, minPlayers, maxPlayers);
  const seed = values.seed ?? '1';
  variantConfig(game, values.variant); // validate before the long run starts
  let figures: SimulationFigures;
  try {
    figures = simulate(game, games, seed, players, values.variant, (done) => {
      io.progress(`simulating ${game}: ${done}/${games} games`);
    });
  } catch (error) {
    if (error instanceof SimulationError) {
      io.err(`zaptable simulate: game with seed ${String(error.seed)} failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
  io.progress('');
  if (values.json) {
    io.out(JSON.stringify(figures, null, 2));
    return 0;
  }
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  io.out(`${figures.game} (${figures.variant}), ${figures.players} players, ${figures.games} games, seed ${figures.seed}`);
  io.out(`  time            ${figures.seconds.toFixed(3)} s wall, ${figures.cpuSeconds.toFixed(3)} s CPU`);
  io.out(`  games/s         ${figures.gamesPerSecond.toLocaleString('en-US')}`);
  io.out(`  actions/s       ${figures.actionsPerSecond.toLocaleString('en-US')} wall, ${figures.actionsPerCpuSecond.toLocaleString('en-US')} CPU  (${figures.actions.toLocaleString('en-US')} applied actions)`);
  io.out(`  actions/game    ${figures.meanActionsPerGame}`);
  io.out(`  rounds/game     ${figures.meanRounds}`);
  io.out(`  shared wins     ${figures.sharedWins}`);
  io.out('  seat      wins     mean score');
  for (const id of Object.keys(figures.winShareBySeat)) {
    io.out(`  ${id.padEnd(8)}  ${pct(figures.winShareBySeat[id] ?? 0).padStart(7)}  ${String(figures.meanScoreBySeat[id]).padStart(10)}`);
  }
  io.out(`  fingerprint     ${figures.fingerprint}  (same seed and options → same fingerprint)`);
  return 0;
}
