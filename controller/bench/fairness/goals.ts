/**
 * The fairness benchmark's goals per link model (issue 16). Every goal counts every race and every
 * happening: a lost happening, an unanswered race or a row with fewer races than asked fails, it never
 * leaves a denominator.
 */
import type { RowFigures } from './fairness-bench.ts';
import type { FairnessLinkName } from './usb-links.ts';
import { isSlapGoalRow, SLAP_GOAL_RACES } from './world.ts';

export interface Goal {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
const sum = (rows: readonly RowFigures[], f: (r: RowFigures) => number): number => rows.reduce((n, r) => n + f(r), 0);

/** Slap-sensor cards ≥ 1 ms apart across stations through the Zip-Zap runtime must be decided this often. */
export const SLAP_DECIDED_GOAL = 0.999;

export function fairnessGoals(link: FairnessLinkName, rows: readonly RowFigures[]): Goal[] {
  const short = rows.filter((r) => r.pairs < r.planned || r.pairs === 0);
  const wrong = sum(rows, (r) => r.wrong);
  const worstCell = rows.filter((r) => r.wrong > 0)
    .map((r) => `${r.cell.path}/${r.cell.sensor}/${r.cell.resting} @${r.separationUs / 1000} ms: ${r.wrong} (${r.wrongOutside} with a true time outside)`);
  const unanswered = sum(rows, (r) => r.unanswered);
  const lost = sum(rows, (r) => r.lost);
  const within = sum(rows, (r) => r.inside + r.outside);
  const outside = sum(rows, (r) => r.outside);
  const slap = rows.filter((r) => isSlapGoalRow(r.cell, r.separationUs));
  const slapPairs = sum(slap, (r) => r.pairs);
  const slapDecided = sum(slap, (r) => r.right + r.wrong);
  return [
    {
      name: 'every row filled: no empty row, no lost happening, no unanswered race',
      pass: short.length === 0 && lost === 0 && unanswered === 0 && rows.length > 0,
      detail: `${short.length} short rows, ${lost} lost happenings, ${unanswered} unanswered races`,
    },
    {
      name: `0 wrong orders in every cell (${link}${link === 'ft232-16ms' ? ': ties allowed, wrong orders not' : ''})`,
      pass: wrong === 0,
      detail: wrong === 0 ? `${sum(rows, (r) => r.pairs)} races` : `${wrong} wrong: ${worstCell.slice(0, 4).join('; ')}`,
    },
    {
      name: 'every true time inside its interval (happenings within the world\'s stated range)',
      pass: within > 0 && outside === 0,
      detail: `${within - outside} of ${within} inside (${within === 0 ? 'none' : pct((within - outside) / within)})`,
    },
    {
      // 99.9 % is a claim only over enough races: fewer than SLAP_GOAL_RACES cannot show it, whatever they say.
      name: `Zip-Zap slap-sensor cards ≥ 1 ms apart across stations decided ≥ ${pct(SLAP_DECIDED_GOAL)} (over ≥ ${SLAP_GOAL_RACES} races)`,
      pass: slapPairs >= SLAP_GOAL_RACES && slapDecided / slapPairs >= SLAP_DECIDED_GOAL,
      detail: `${slapDecided} of ${slapPairs} (${slapPairs === 0 ? 'none' : pct(slapDecided / slapPairs)})`
        + (slapPairs < SLAP_GOAL_RACES ? `: too few races to show ${pct(SLAP_DECIDED_GOAL)}` : ''),
    },
  ];
}
