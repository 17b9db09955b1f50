/**
 * `zaptable bench fairness`: races on the controller as `zaptable start` assembles it, simulated stations
 * sending protocol lines through the real serial driver into the real table runtimes and engines, under five
 * USB link models side by side, judged against the true landing times (controller/bench/fairness/). Figures,
 * not a timed test: the exit code is 0 whatever the figures say (2 for a usage error).
 */
import { runFairnessBench, type FairnessFaults, type FairnessFigures } from '../../bench/fairness/fairness-bench.ts';
import { FAIRNESS_LINKS, type FairnessLinkName } from '../../bench/fairness/usb-links.ts';
import { DEFAULT_PHYSICS, type Physics } from '../../bench/fairness/world.ts';
import { UsageError, intOption, parse } from '../args.ts';
import type { Output } from '../output.ts';

export const benchFairnessHelp = `zaptable bench fairness [--pairs N] [--seed S] [--link L[,L…]] [--power-up-tail PCT] [--power-up-max-ms M] [fault options] [--json]

Builds the controller the way \`zaptable start\` does (the same assembly of tables and hardware) on virtual
time: simulated seat stations whose protocol lines go through the real serial driver into the real
Zip-Zap, Killer-21 and buzzer runtimes. Races two happenings a known time apart - Zip-Zap cards with slap
sensors and tag-only, two cards on one pad, Killer-21's red 0 against the Killer's landing and against the
window's deadline, buzzer buttons; 0, 4 and 13 cards resting on the pads - and compares
what the table decided (right, tie, wrong, unanswered) with the true landing times, and checks every
true time against the interval the table took. Link models: realistic, pessimistic, ft232-16ms (FT232R,
default latency timer), ft232-1ms (latency timer set to 1 ms by hardware/pi/99-zaptable.rules), ch340. Same seed, same figures.

  --pairs N            races per row: cell x separation (default 60; 51 rows per link model). The rows of the
                       slap goal (Zip-Zap slap-sensor cards >= 1 ms apart across stations) get at least 167
                       each, 1002 together: 99.9 % decided can only be shown over >= 1000 races
  --seed S             simulation seed (default 1)
  --link L             link models, comma-separated (default all five)
  --power-up-tail PCT  percent of tags whose power-up lies beyond the 5 ms allowance (default 1)
  --power-up-max-ms M  how far that tail reaches, ms (default 8)
  --json               print the figures as JSON

Fault options (the benchmark must fail with each; they break the controller's inputs, not its code):
  --fault-drop-slap-cards      the slap matcher drops the cards it dates
  --fault-interval-scale PCT   every interval narrowed to PCT % of its width (e.g. 85)
  --fault-arrival-order        every event dated at its arrival, without an interval
  --fault-batch-window-ms MS   the tables' arbitration (batch) window (e.g. 0)
  --fault-power-up-allowance-us US  the controller's tag power-up allowance (e.g. 1000)`;

function faultsOf(values: Record<string, string | boolean | undefined>): FairnessFaults {
  const scale = values['fault-interval-scale'];
  const window = values['fault-batch-window-ms'];
  const powerUp = values['fault-power-up-allowance-us'];
  return {
    ...(values['fault-drop-slap-cards'] === true ? { dropSlapCards: true } : {}),
    ...(values['fault-arrival-order'] === true ? { arrivalOrder: true } : {}),
    ...(typeof scale === 'string' ? { intervalScale: intOption(scale, 'fault-interval-scale', 100, 0, 100) / 100 } : {}),
    ...(typeof window === 'string' ? { batchWindowMs: intOption(window, 'fault-batch-window-ms', 30, 0, 10_000) } : {}),
    ...(typeof powerUp === 'string' ? { powerUpAllowanceUs: intOption(powerUp, 'fault-power-up-allowance-us', 5000, 0, 1_000_000) } : {}),
  };
}

export async function benchFairnessCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values } = parse(argv, {
    pairs: { type: 'string' }, seed: { type: 'string' }, link: { type: 'string' },
    'power-up-tail': { type: 'string' }, 'power-up-max-ms': { type: 'string' }, json: { type: 'boolean' },
    'fault-drop-slap-cards': { type: 'boolean' }, 'fault-interval-scale': { type: 'string' },
    'fault-arrival-order': { type: 'boolean' }, 'fault-batch-window-ms': { type: 'string' },
    'fault-power-up-allowance-us': { type: 'string' },
  });
  const pairs = intOption(values.pairs, 'pairs', 60, 1, 100_000);
  const names = (values.link ?? FAIRNESS_LINKS.join(',')).split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !FAIRNESS_LINKS.includes(n as FairnessLinkName));
  if (unknown.length > 0) throw new UsageError(`--link: unknown link model ${unknown.join(', ')} (have ${FAIRNESS_LINKS.join(', ')})`);
  const tail = intOption(values['power-up-tail'], 'power-up-tail', 1, 0, 100);
  const tailMaxMs = intOption(values['power-up-max-ms'], 'power-up-max-ms', 8, 5, 100);
  const physics: Physics = {
    ...DEFAULT_PHYSICS, powerUp: { ...DEFAULT_PHYSICS.powerUp, tailShare: tail / 100, tailMaxUs: tailMaxMs * 1000 },
  };
  const started = Date.now();
  const figures = await runFairnessBench({
    pairs, seed: values.seed ?? '1', links: names as FairnessLinkName[], physics, faults: faultsOf(values),
  }, (text) => {
    io.progress(`bench fairness (${((Date.now() - started) / 1000).toFixed(0)} s): ${text}`);
  });
  io.progress('');
  if (values.json === true) io.out(JSON.stringify(figures, null, 2));
  else for (const line of formatFairnessReport(figures)) io.out(line);
  io.out(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  return 0;
}

const range = (r: Physics['powerUp'], unit: 'ms' | 'µs'): string => {
  const k = unit === 'ms' ? 1000 : 1;
  return `${r.minUs / k}–${r.maxUs / k} ${unit}, ${(r.tailShare * 100).toFixed(1)} % up to ${r.tailMaxUs / k} ${unit}`;
};

/** Races in each row of the slap goal (they may get more than `--pairs`, see the help). */
function goalRowRaces(f: FairnessFigures): number {
  return Math.max(0, ...(f.links[0]?.rows ?? []).filter((r) => r.planned > f.pairsPerRow).map((r) => r.planned), f.pairsPerRow);
}

/** The report: one table, a column per link model, then the goals. */
export function formatFairnessReport(f: FairnessFigures): string[] {
  const faults = Object.entries(f.faults).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  const lines = [
    `bench fairness: seed ${f.seed}, ${f.pairsPerRow} races per row (the slap goal's rows ${goalRowRaces(f)} each), `
      + `${f.simulatedSeconds.toFixed(0)} s simulated per link model`,
    `world: tag power-up ${range(f.physics.powerUp, 'ms')} (allowance 5 ms); interrupt stamp delay ${range(f.physics.stampDelay, 'µs')} (allowance 80 µs)`,
    ...(faults === '' ? [] : [`FAULTS INJECTED: ${faults}`]),
    '',
    'decided right / tie / wrong (+ unanswered) per race; pad = two cards on one pad (the order of the intervals the table took);',
    'killer = a red 0 before/after the Killer\'s landing (after: an answer); deadline = a red 0 before/after the deadline (before: in time)',
  ];
  const head = ['path     sensor resting  sep   ', ...f.links.map((l) => l.link.padEnd(17))].join(' | ');
  lines.push(head, '-'.repeat(head.length));
  const rows = f.links[0]?.rows ?? [];
  rows.forEach((row, i) => {
    const cells = f.links.map((l) => {
      const r = l.rows[i];
      if (r === undefined) return ''.padEnd(17);
      return `${r.right}/${r.tie}/${r.wrong}${r.unanswered > 0 ? ` +${r.unanswered}` : ''}`.padEnd(17);
    });
    const label = `${row.cell.path.padEnd(8)} ${row.cell.sensor.padEnd(6)} ${String(row.cell.resting).padStart(7)}  ${(row.separationUs / 1000).toFixed(1).padStart(4)} ms`;
    lines.push([label, ...cells].join(' | '));
  });
  lines.push('', 'true landing time inside the interval the table took: drawn within the stated range / in the tail beyond it');
  for (const l of f.links) {
    const s = (k: 'inside' | 'outside' | 'beyondInside' | 'beyondOutside' | 'lost'): number => l.rows.reduce((n, r) => n + r[k], 0);
    const worst = Math.max(0, ...l.rows.map((r) => r.worstOutsideUs));
    lines.push(`  ${l.link.padEnd(12)} ${s('inside')} of ${s('inside') + s('outside')} within; tail: ${s('beyondInside')} of `
      + `${s('beyondInside') + s('beyondOutside')} inside; lost ${s('lost')}; worst miss ${worst.toFixed(0)} µs; driver warnings ${l.driverWarnings}`);
  }
  lines.push('', 'goals');
  for (const l of f.links) for (const g of l.goals) lines.push(`  ${g.pass ? 'PASS' : 'MISS'} [${l.link}] ${g.name}: ${g.detail}`);
  for (const g of f.goals) lines.push(`  ${g.pass ? 'PASS' : 'MISS'} ${g.name}: ${g.detail}`);
  return lines;
}
