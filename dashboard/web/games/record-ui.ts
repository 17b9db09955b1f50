/**
 * What a game lends the game record page (`pages/record.ts`): the name of its score, its chart over time and
 * what one step's public view shows. Optional in a `GameUi`: without it the page charts the engine's scores
 * over time and shows no view of a step beyond its events.
 */
import type { RecordStep } from '../../../controller/rules/game-record.ts';
import type { NameOf } from '../names.ts';

export type { RecordStep };

/** One chart: x values (rounds, or seconds since the game started) and per player one y value for each. */
export interface RecordSeries {
  readonly title: string;
  /** The x axis in words: "round", "seconds since the start". */
  readonly x: string;
  /** The y axis in words: "penalty points", "lives", "fields travelled". */
  readonly y: string;
  readonly xs: readonly number[];
  readonly ys: Readonly<Record<string, readonly number[]>>;
}

export interface RecordUi {
  /** What the engine's `scores` are in this game, from a view of it (Zip-Zap's depends on the scoring mode). */
  scoreLabel(view: unknown): string;
  /** The game's chart from its steps (public events and standing), or undefined with too little to draw. */
  chart(steps: readonly RecordStep[], players: readonly string[], view: unknown): RecordSeries | undefined;
  /** What one step's public view shows: a few lines, or the board. */
  stepView(view: unknown, nameOf: NameOf): HTMLElement;
}

/** x values and per player the y values. */
interface Points {
  readonly xs: number[];
  readonly ys: Record<string, number[]>;
}

/** The standing at the end of each round: x = the round, y = the scores after the step that completed it. */
export function scoresByRound(steps: readonly RecordStep[], players: readonly string[]): Points {
  const xs: number[] = [0];
  const ys: Record<string, number[]> = Object.fromEntries(players.map((p) => [p, [steps[0]?.scores[p] ?? 0]]));
  let rounds = steps[0]?.rounds ?? 0;
  for (const step of steps) {
    if (step.rounds <= rounds) continue;
    rounds = step.rounds;
    xs.push(rounds);
    for (const p of players) ys[p]?.push(step.scores[p] ?? 0);
  }
  return { xs, ys };
}

/** The scores after every step that changed them: x = seconds since the game started. */
export function scoresOverTime(steps: readonly RecordStep[], players: readonly string[]): Points {
  const start = steps[0]?.at ?? 0;
  const xs: number[] = [];
  const ys: Record<string, number[]> = Object.fromEntries(players.map((p) => [p, []]));
  let last = '';
  steps.forEach((step, i) => {
    const key = JSON.stringify(players.map((p) => step.scores[p]));
    if (key === last && i !== steps.length - 1) return;
    last = key;
    xs.push(Math.round((step.at - start) / 100) / 10);
    for (const p of players) ys[p]?.push(step.scores[p] ?? 0);
  });
  return { xs, ys };
}
