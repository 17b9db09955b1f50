/**
 * Random bots play complete Killer-21 games with legal actions only, through the shared game loop
 * (`playGame`), and the figures are printed: games/s, applied actions/s, game length and outcomes. It is what
 * `zaptable simulate --game killer-21` will run once phase B registers the engine; until then:
 *
 *   npx tsx controller/bots/killer-21-sim.ts [--games N] [--players P] [--seed S] [--variant standard|blitz] [--json]
 *
 * Same seed, same games: the fingerprint (a hash of every game's result) shows it.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { killer21Engine } from '../rules/killer-21/index.ts';
import { playGame } from './play-game.ts';

/** Seat ids for up to seven players. */
export const KILLER21_PLAYER_IDS: readonly string[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];

export interface Killer21Figures {
  readonly game: 'killer-21';
  readonly variant: 'standard' | 'blitz';
  readonly games: number;
  readonly players: number;
  readonly seed: string;
  readonly actions: number;
  /** Wall-clock time of the game loop. */
  readonly seconds: number;
  /** CPU time (user + system) the process spent in the loop: what the engine costs on a busy, shared machine. */
  readonly cpuSeconds: number;
  readonly gamesPerSecond: number;
  /** Applied actions per wall-clock second. */
  readonly actionsPerSecond: number;
  /** Applied actions per CPU second. */
  readonly actionsPerCpuSecond: number;
  readonly meanActionsPerGame: number;
  readonly maxActionsPerGame: number;
  readonly meanRounds: number;
  readonly sharedWins: number;
  readonly winShareBySeat: Readonly<Record<string, number>>;
  readonly meanLivesOfWinners: number;
  readonly fingerprint: string;
}

/** FNV-1a over a string, folded into a running 32-bit hash. */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** Plays `games` games (game i has seed `<seed>:<i>`) and measures them. */
export function simulateKiller21(games: number, seed: string, players: number, variant: 'standard' | 'blitz' = 'standard'): Killer21Figures {
  const ids = KILLER21_PLAYER_IDS.slice(0, players);
  const config = { players: ids, variant: variant === 'blitz' ? 'BLITZ' : 'STANDARD' };
  const wins: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  let actions = 0;
  let maxActions = 0;
  let rounds = 0;
  let shared = 0;
  let winnerLives = 0;
  let hash = 2166136261;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let i = 0; i < games; i++) {
    const played = playGame(killer21Engine, config, `${seed}:${i}`, { recordActions: false });
    actions += played.actionCount;
    maxActions = Math.max(maxActions, played.actionCount);
    rounds += played.result.rounds;
    if (played.result.winners.length > 1) shared++;
    for (const w of played.result.winners) {
      wins[w] = (wins[w] ?? 0) + 1 / played.result.winners.length;
      winnerLives += (played.result.scores[w] ?? 0) / played.result.winners.length;
    }
    hash = fnv(hash, JSON.stringify(played.result));
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const perGame = (x: number): number => Math.round((x / games) * 1000) / 1000;
  return {
    game: 'killer-21', variant, games, players, seed, actions,
    seconds: Math.round(seconds * 1000) / 1000,
    cpuSeconds: Math.round(cpuSeconds * 1000) / 1000,
    gamesPerSecond: Math.round(games / seconds),
    actionsPerSecond: Math.round(actions / seconds),
    actionsPerCpuSecond: Math.round(actions / cpuSeconds),
    meanActionsPerGame: perGame(actions),
    maxActionsPerGame: maxActions,
    meanRounds: perGame(rounds),
    sharedWins: shared,
    winShareBySeat: Object.fromEntries(ids.map((id) => [id, perGame(wins[id] ?? 0)])),
    meanLivesOfWinners: perGame(winnerLives),
    fingerprint: hash.toString(16).padStart(8, '0'),
  };
}

function main(argv: readonly string[]): number {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      games: { type: 'string', default: '10000' }, players: { type: 'string', default: '4' },
      seed: { type: 'string', default: '1' }, variant: { type: 'string', default: 'standard' }, json: { type: 'boolean', default: false },
    },
  });
  const games = Number(values.games);
  const players = Number(values.players);
  if (!Number.isInteger(games) || games < 1) throw new Error('--games: a whole number ≥ 1');
  if (!Number.isInteger(players) || players < 2 || players > 7) throw new Error('--players: 2..7');
  if (values.variant !== 'standard' && values.variant !== 'blitz') throw new Error('--variant: standard or blitz');
  const f = simulateKiller21(games, values.seed, players, values.variant);
  if (values.json) {
    console.log(JSON.stringify(f, null, 2));
    return 0;
  }
  console.log(`killer-21 (${f.variant}), ${f.players} players, ${f.games} games, seed ${f.seed}`);
  console.log(`  time            ${f.seconds.toFixed(3)} s wall, ${f.cpuSeconds.toFixed(3)} s CPU`);
  console.log(`  games/s         ${f.gamesPerSecond.toLocaleString('en-US')}`);
  console.log(`  actions/s       ${f.actionsPerSecond.toLocaleString('en-US')} per wall second, ${f.actionsPerCpuSecond.toLocaleString('en-US')} per CPU second`
    + `  (${f.actions.toLocaleString('en-US')} applied actions)`);
  console.log(`  actions/game    ${f.meanActionsPerGame} (max ${f.maxActionsPerGame})`);
  console.log(`  rounds/game     ${f.meanRounds}`);
  console.log(`  shared wins     ${f.sharedWins}`);
  console.log(`  winner's lives  ${f.meanLivesOfWinners} (mean)`);
  for (const [id, share] of Object.entries(f.winShareBySeat)) console.log(`  seat ${id}  wins ${(share * 100).toFixed(1)} %`);
  console.log(`  fingerprint     ${f.fingerprint}  (same seed and options → same fingerprint)`);
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) process.exitCode = main(process.argv.slice(2));
