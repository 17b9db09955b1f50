/**
 * The physical pad of a simulated seat: what lies on it, and what its load cell reads. A mass placed or
 * lifted does not arrive at once: it ramps over `settleMs` (a hand setting a barrel down), which is what
 * the firmware's stability filter sees as "moving" before it reports the settled weight.
 */
import { SeededRandom } from '../../kernel/random.ts';

/** The HX711's signed 24-bit range. */
const HX711_MIN = -8_388_608;
const HX711_MAX = 8_388_607;

/** The load cell under the pad. */
export interface LoadCell {
  /** Reading with an empty pad, counts. */
  readonly zeroCounts: number;
  /** Counts per kg. */
  readonly countsPerKg: number;
  /** Peak noise, grams (uniform, seeded); 0 for exact readings. */
  readonly noiseGrams: number;
  /** Time a mass takes to come to rest, ms. */
  readonly settleMs: number;
}

interface Ramp {
  readonly from: number;
  readonly to: number;
  readonly startUs: number;
  readonly endUs: number;
}

export class SimulatedPad {
  private readonly cell: LoadCell;
  private readonly noise: SeededRandom;
  private readonly items = new Map<string | symbol, number>();
  private ramp: Ramp = { from: 0, to: 0, startUs: 0, endUs: 0 };

  constructor(cell: LoadCell, seed: string) {
    this.cell = cell;
    this.noise = new SeededRandom(seed);
  }

  /** Puts a mass on the pad at host time `nowUs` (keyed by its tag, if it has one). */
  place(key: string | undefined, grams: number, nowUs: number): void {
    this.items.set(key ?? Symbol('mass'), grams);
    this.rampTo(nowUs);
  }

  /** Takes the item with this tag off the pad; false when it was not on it. */
  lift(key: string, nowUs: number): boolean {
    if (!this.items.delete(key)) return false;
    this.rampTo(nowUs);
    return true;
  }

  /** The mass on the pad at host time `hostUs`, grams. */
  gramsAt(hostUs: number): number {
    const r = this.ramp;
    if (hostUs >= r.endUs) return r.to;
    if (hostUs <= r.startUs) return r.from;
    return r.from + ((r.to - r.from) * (hostUs - r.startUs)) / (r.endUs - r.startUs);
  }

  /** One HX711 reading at host time `hostUs`. */
  readCounts(hostUs: number): number {
    const { noiseGrams, zeroCounts, countsPerKg } = this.cell;
    const noise = noiseGrams === 0 ? 0 : this.noise.uniform(-noiseGrams, noiseGrams);
    const counts = zeroCounts + Math.round(((this.gramsAt(hostUs) + noise) * countsPerKg) / 1000);
    return Math.min(HX711_MAX, Math.max(HX711_MIN, counts));
  }

  private rampTo(nowUs: number): void {
    let total = 0;
    for (const grams of this.items.values()) total += grams;
    this.ramp = { from: this.gramsAt(nowUs), to: total, startUs: nowUs, endUs: nowUs + this.cell.settleMs * 1000 };
  }
}
