/**
 * The timing benchmark's goals (issue 9), judged per link model. Each can fail: the tests show one failing.
 */
import type { CellFigures, GoalFigures, IntervalFigures, MappingFigures } from './figures.ts';
import type { PairKind } from './pair-kinds.ts';

const pct = (x: number): string => `${(x * 100).toFixed(3)} %`;
const share = (c: CellFigures): number => (c.pairs === 0 ? NaN : c.ours.correct / c.pairs);

/** The cell with the smallest share correct, shown with its counts (a share rounded to 99.900 % may be below it). */
function worstCorrect(
  cells: readonly CellFigures[], kind: PairKind, fromUs: number,
): { value: number; cells: number; text: string } {
  const list = cells.filter((c) => c.kind === kind && c.separationUs >= fromUs && c.pairs > 0);
  const worst = list.reduce<CellFigures | undefined>((w, c) => (w === undefined || share(c) < share(w) ? c : w), undefined);
  const text = worst === undefined ? 'no pairs'
    : `worst cell ${pct(share(worst))}: ${worst.ours.correct} of ${worst.pairs} at ${worst.separationUs / 1000} ms`;
  return { value: worst === undefined ? NaN : share(worst), cells: list.length, text };
}

/** The goals of one link model's figures. */
export function linkGoals(f: {
  readonly cells: readonly CellFigures[];
  readonly mapping: MappingFigures;
  readonly intervals: readonly IntervalFigures[];
}): GoalFigures[] {
  const goals: GoalFigures[] = [];
  const wrong = f.cells.filter((c) => c.ours.wrong > 0);
  const wrongPairs = wrong.reduce((n, c) => n + c.ours.wrong, 0);
  goals.push({
    goal: 'our arbitration: 0 wrong orders in every cell',
    value: wrong.length === 0 ? `0 in ${f.cells.length} cells` : `${wrongPairs} wrong in ${wrong.length} cell(s)`,
    met: wrong.length === 0,
  });
  const slap = worstCorrect(f.cells, 'card-slap', 1000);
  if (slap.cells > 0) {
    goals.push({
      goal: 'slap-sensor stations, card vs card across stations, >= 1 ms: >= 99.9 % correct',
      value: slap.text, met: slap.value >= 0.999,
    });
  }
  const tagCells = f.cells.filter((c) => c.kind === 'card-tag');
  if (tagCells.length > 0) {
    const tagWrong = tagCells.reduce((n, c) => n + c.ours.wrong, 0);
    const decided = tagCells.filter((c) => c.pairs > 0 && share(c) >= 0.999).map((c) => c.separationUs);
    const from = decided.length === 0 ? 'none' : `${Math.min(...decided) / 1000} ms`;
    goals.push({
      goal: 'tag-only stations, card vs card across stations: never wrong (ties below the tag interval)',
      value: `${tagWrong} wrong; >= 99.9 % correct from ${from}`, met: tagWrong === 0,
    });
  }
  const buttons = worstCorrect(f.cells, 'button-button', 1000);
  if (buttons.cells > 0) {
    goals.push({
      goal: 'buttons across stations, >= 1 ms: >= 99.9 % correct',
      value: buttons.text, met: buttons.value >= 0.999,
    });
  }
  goals.push({
    goal: 'clock-mapping error p99 <= 200 us', value: `p99 ${f.mapping.p99Us.toFixed(1)} us`, met: f.mapping.p99Us <= 200,
  });
  const outside = f.intervals.reduce((n, i) => n + (i.events - i.insideDevice) + (i.syncedEvents - i.insideHost), 0);
  const cellsOutside = f.cells.reduce((n, c) => n + (2 * c.pairs - c.inside), 0);
  goals.push({
    goal: 'every true time inside its reported interval (device and controller time)',
    value: outside + cellsOutside === 0 ? '100 %' : `${outside} event checks and ${cellsOutside} pair events outside`,
    met: outside + cellsOutside === 0,
  });
  return goals;
}
