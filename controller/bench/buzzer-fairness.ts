/**
 * The fairness half of `zaptable bench buzzer`: for press pairs at known separations, the share put in the
 * right order by the buzzer ranking (`rankPresses`, i.e. `arbitrate()`) — correct / tie / wrong — beside host
 * arrival order, and the share of true press times inside the stated interval; under both link models of the
 * timing benchmark (realistic: one event loop and USB host for every port; pessimistic: independent delays).
 *
 * - Seat-station buzzers: the timing benchmark's world (bench/timing/timing-bench.ts) and its
 *   button-vs-button pairs across stations, ranked by `rankPresses` instead of `arbitrate()` directly.
 * - Hub buzzers (hub-buzzer-world.ts): presses through StandardFirmata's scan, TX buffer, wire and bridge,
 *   then the **same host** as the seats, stamped by the hub's production code; two buttons of one hub, and
 *   one button on each of two hubs (where a too-narrow stated interval would show as wrong orders).
 * Deterministic for a seed; no I/O.
 */
import { rankPresses, type AcceptedPress, type PressTime } from '../buzzer/index.ts';
import type { EventTime } from '../hardware/interface.ts';
import { LINK_MODELS, type LinkModel, type LinkName } from './sim/simulated-link.ts';
import { BENCH_SEPARATIONS_US, runTimingBench, type ControllerEvent } from './timing/timing-bench.ts';
import type { LatencyModel } from '../hardware/buzzer-hub/host-timestamp.ts';
import { simulateHubPairs, type HubLayout, type HubPress, type HubWorldModel } from './hub-buzzer-world.ts';

export interface FairnessCell {
  readonly separationUs: number;
  readonly pairs: number;
  readonly ours: { readonly correct: number; readonly tie: number; readonly wrong: number };
  readonly arrival: { readonly correct: number; readonly wrong: number };
  /** Presses (two per pair) whose true time lay inside the stated interval. */
  readonly inside: number;
}

export interface LinkFairness {
  readonly link: LinkName;
  /** Two seat stations (device time + clock sync). */
  readonly seat: readonly FairnessCell[];
  /** Two buttons of one hub. */
  readonly oneHub: readonly FairnessCell[];
  /** One button on each of two hubs. */
  readonly twoHubs: readonly FairnessCell[];
  /** Hub presses whose true time lay inside the stated interval (both layouts). */
  readonly hubWithinBound: number;
}

export interface FairnessFigures {
  readonly links: readonly LinkFairness[];
}

export const SEAT_SEPARATIONS_US = BENCH_SEPARATIONS_US;
// Up to 200 ms: with the measured host allowance (±27.8 ms a press, docs/buzzer-hub.md) hub pairs tie below ~60 ms.
export const HUB_SEPARATIONS_US = [100, 500, 1000, 2000, 5000, 8000, 10_000, 20_000, 50_000, 100_000, 200_000] as const;

/** The buzzer's press time for an event time (the sensor interval carried along where there is one). */
function pressTime(t: EventTime | ControllerEvent, source: PressTime['source']): PressTime {
  // A wider object assigned to PressTime: whichever fields the ranking reads (beforeUs/afterUs included) are there.
  const time = {
    source, epoch: t.epoch, deviceUs: t.deviceUs, hostUs: t.hostUs, uncertaintyUs: t.uncertaintyUs,
    beforeUs: t.beforeUs ?? 0, afterUs: t.afterUs ?? 0,
  };
  return time;
}

function press(contestant: string, station: string, time: PressTime, arrivedUs: number): AcceptedPress {
  return { contestant, entrant: contestant, station, time, arrivedUs };
}

/** Ranks two presses given in arrival order; `first` names the truly earlier one. */
function judge(presses: readonly AcceptedPress[]): 'correct' | 'tie' | 'wrong' {
  const top = rankPresses(presses, { deviceResolutionUs: 4 }).first?.presses ?? [];
  if (top.length > 1) return 'tie';
  return top[0]?.contestant === 'first' ? 'correct' : 'wrong';
}

function hubCells(
  seed: string, link: LinkModel, layout: HubLayout, pairs: number, o: FairnessOptions,
): { cells: FairnessCell[]; inside: number; presses: number } {
  const bySeparation = simulateHubPairs(seed, link, layout, HUB_SEPARATIONS_US, pairs, o.hubLatency, o.hubWorld);
  let inside = 0;
  let presses = 0;
  const within = (p: HubPress): number => (Math.abs(p.time.hostUs - p.trueUs) <= p.time.uncertaintyUs ? 1 : 0);
  const cells = HUB_SEPARATIONS_US.map((separationUs, s) => {
    const ours = { correct: 0, tie: 0, wrong: 0 };
    const arrival = { correct: 0, wrong: 0 };
    let cellInside = 0;
    for (const [a, b] of bySeparation[s] ?? []) {
      if (a === undefined || b === undefined) continue;
      const pa = press('first', 'hub-a', pressTime(a.time, 'host'), a.arrivalUs);
      const pb = press('second', layout === 'one-hub' ? 'hub-a' : 'hub-b', pressTime(b.time, 'host'), b.arrivalUs);
      ours[judge(a.arrivalUs <= b.arrivalUs ? [pa, pb] : [pb, pa])]++;
      arrival[a.arrivalUs < b.arrivalUs ? 'correct' : 'wrong']++;
      cellInside += within(a) + within(b);
    }
    inside += cellInside;
    presses += 2 * pairs;
    return { separationUs, pairs, ours, arrival, inside: cellInside };
  });
  return { cells, inside, presses };
}

export interface FairnessOptions {
  /** Link models (default both, realistic first). */
  readonly links?: readonly LinkModel[];
  /** The hub's stated latency model (default the hub's own, `DEFAULT_FIRMATA_LATENCY`). */
  readonly hubLatency?: LatencyModel;
  /** The hub's physical world (default `DEFAULT_HUB_WORLD`). */
  readonly hubWorld?: HubWorldModel;
}

/** The fairness tables for each link model. `onProgress` gets a line now and then. */
export function runBuzzerFairness(
  pairs: number, seed: string, onProgress: (text: string) => void = () => undefined, o: FairnessOptions = {},
): FairnessFigures {
  const links = o.links ?? LINK_MODELS;
  const timing = runTimingBench({
    pairs, seed, stations: 4, kinds: ['button-button'], links,
    judge: (a, b, inArrivalOrder) => {
      const pa = press('first', a.station, pressTime(a, 'device'), a.hostUs);
      const pb = press('second', b.station, pressTime(b, 'device'), b.hostUs);
      return judge(inArrivalOrder ? [pa, pb] : [pb, pa]);
    },
  }, onProgress);
  return {
    links: links.map((link, i) => {
      onProgress(`hub buttons, ${link.name} link`);
      const seat = (timing.links[i]?.cells ?? []).map((c) => ({
        separationUs: c.separationUs, pairs: c.pairs, ours: c.ours, arrival: c.arrival, inside: c.inside,
      }));
      const one = hubCells(seed, link, 'one-hub', pairs, o);
      const two = hubCells(seed, link, 'two-hubs', pairs, o);
      return {
        link: link.name, seat, oneHub: one.cells, twoHubs: two.cells,
        hubWithinBound: (one.inside + two.inside) / (one.presses + two.presses),
      };
    }),
  };
}
