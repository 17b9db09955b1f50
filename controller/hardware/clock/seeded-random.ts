/**
 * A small seeded generator for the clock simulations (benchmark and tests). `hardware/` may not import the
 * rules' generator (`rules/common/rng.ts`), and the simulation draws hundreds of thousands of values, so
 * this one is a mutable object rather than a pure state-passing function. Same algorithm (sfc32) and the
 * same seed hashing idea, so a seed string means one fixed stream.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Any string or number seeds the generator; equal seeds give equal streams. */
  constructor(seed: string | number) {
    // cyrb128-style hash of the seed text into 128 bits of state.
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
    this.a = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    this.b = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    this.c = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    this.d = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    for (let i = 0; i < 15; i++) this.uint32();
  }

  /** An unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 2 ** 32;
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
