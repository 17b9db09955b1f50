/**
 * The one seeded pseudo-random generator of the project: the rules engines' shuffles and dice, the bots, the
 * simulated table's noise, the clock simulations and benchmarks, the emulator models of the tests. Equal seeds
 * give equal streams everywhere, and a stream never depends on the machine (only 32-bit integer arithmetic,
 * which JavaScript does exactly).
 *
 * The algorithm is sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes
 * PractRand. A seed (any integer or string) is hashed into the state with cyrb128, then the generator is warmed
 * up by 15 draws. **The output sequence for a seed is frozen**: the rules engines keep the state inside the game
 * state and replaying an action log must reproduce every shuffle and die roll (design principle 1), and the
 * `zaptable simulate` fingerprints in docs/rules-engine.md pin it.
 *
 * Two faces over the same step:
 * - pure state passing (`seedRng`, `nextUint32`, `nextInt`, `shuffle`): the state is a plain JSON value
 *   ({@link Rng}) kept in the game state; every call returns the drawn value with the next state;
 * - {@link SeededRandom}, a mutable object for simulations that draw hundreds of thousands of values.
 * `new SeededRandom(s).uint32()` draws exactly what `nextUint32(seedRng(s))` draws.
 */

/** The generator state: four unsigned 32-bit integers. Serialisable as JSON (see {@link isRng}). */
export type Rng = readonly [number, number, number, number];

/** Advances a mutable state in place (stored unsigned, so the state is canonical JSON) and returns the draw. */
function advance(s: [number, number, number, number]): number {
  const [a, b, c, d] = s;
  const t = (((a + b) | 0) + d) | 0;
  const c1 = (c << 21) | (c >>> 11);
  s[0] = (b ^ (b >>> 9)) >>> 0;
  s[1] = (c + (c << 3)) >>> 0;
  s[2] = (c1 + t) >>> 0;
  s[3] = (d + 1) >>> 0;
  return t >>> 0;
}

/** Builds a generator from a seed (any integer or string). Equal seeds give equal sequences. */
export function seedRng(seed: number | string): Rng {
  // Hash the seed's text into 128 bits (cyrb128), then warm the generator up.
  const text = String(seed);
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  const s: [number, number, number, number] = [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
  for (let i = 0; i < 15; i++) advance(s);
  return s;
}

/** Draws an unsigned 32-bit integer. */
export function nextUint32(rng: Rng): [number, Rng] {
  const s: [number, number, number, number] = [rng[0], rng[1], rng[2], rng[3]];
  return [advance(s), s];
}

/** Draws an integer in [0, n) without modulo bias. `n` must be a positive integer ≤ 2^32. */
export function nextInt(rng: Rng, n: number): [number, Rng] {
  if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`nextInt: bad bound ${n}`);
  const limit = 2 ** 32 - (2 ** 32 % n);
  const s: [number, number, number, number] = [rng[0], rng[1], rng[2], rng[3]];
  for (;;) {
    const x = advance(s);
    if (x < limit) return [x % n, s];
  }
}

/** Returns a shuffled copy of `items` (Fisher–Yates) and the next generator state. */
export function shuffle<T>(rng: Rng, items: readonly T[]): [T[], Rng] {
  const out = items.slice();
  let state = rng;
  for (let i = out.length - 1; i > 0; i--) {
    const [j, next] = nextInt(state, i + 1);
    state = next;
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return [out, state];
}

/** Checks that a value read from JSON is a valid generator state. */
export function isRng(value: unknown): value is Rng {
  return Array.isArray(value) && value.length === 4
    && value.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) < 2 ** 32);
}

/**
 * The same generator as a mutable object, for simulations (the clock and link models, the simulated table's
 * noise, benchmark worlds, the emulator models of the tests, the bots' timing). Same seed, same stream as
 * {@link seedRng}. The derived draws (`next`, `uniform`, `int`, …) are for simulation: `int` has a slight
 * modulo bias (use the pure {@link nextInt} where fairness matters, as the rules do).
 */
export class SeededRandom {
  private readonly s: [number, number, number, number];

  /** Any string or number seeds the generator; equal seeds give equal streams. */
  constructor(seed: string | number) {
    const [a, b, c, d] = seedRng(seed);
    this.s = [a, b, c, d];
  }

  /** An unsigned 32-bit integer. */
  uint32(): number {
    return advance(this.s);
  }

  /** A float in [0, 1) (32 bits of resolution). */
  next(): number {
    return advance(this.s) / 2 ** 32;
  }

  /** A float in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** An integer in [0, n). Slight modulo bias is irrelevant for simulation use. */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An exponentially distributed value with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }
}

/** The generator as a plain `() => number` in [0, 1), for models that take a random source as a function. */
export function randomSource(seed: string | number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.next();
}
