/**
 * A seeded pseudo-random generator whose whole state is a plain value kept inside the game state,
 * so that replaying an action log reproduces every shuffle and every die roll (design principle 1).
 *
 * The algorithm is sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state,
 * passes PractRand, and needs only 32-bit integer operations, which JavaScript does exactly.
 * Every function here is pure: it returns the drawn value together with the next generator state.
 */

/** The generator state: four unsigned 32-bit integers. Serialisable as JSON. */
export type Rng = readonly [number, number, number, number];

function step(rng: Rng): [number, Rng] {
  let [a, b, c, d] = rng;
  const t = (((a + b) | 0) + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  // Stored unsigned so the state is canonical JSON (isRng); the arithmetic is the same modulo 2^32.
  return [t >>> 0, [a >>> 0, b >>> 0, c >>> 0, d >>> 0]];
}

/** Builds a generator from a seed (any integer or string). Equal seeds give equal sequences. */
export function seedRng(seed: number | string): Rng {
  // Hash the seed into 128 bits with a simple string hash (cyrb128), then warm the generator up.
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
  let rng: Rng = [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
  for (let i = 0; i < 15; i++) rng = step(rng)[1];
  return rng;
}

/** Draws an unsigned 32-bit integer. */
export function nextUint32(rng: Rng): [number, Rng] {
  return step(rng);
}

/** Draws an integer in [0, n) without modulo bias. `n` must be a positive integer ≤ 2^32. */
export function nextInt(rng: Rng, n: number): [number, Rng] {
  if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`nextInt: bad bound ${n}`);
  const limit = 2 ** 32 - (2 ** 32 % n);
  let state = rng;
  for (;;) {
    const [x, next] = step(state);
    state = next;
    if (x < limit) return [x % n, state];
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
