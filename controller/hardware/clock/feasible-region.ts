/**
 * The set of clock lines consistent with a set of ping/pong samples, as a convex polygon in the plane of
 * (offset α, skew s). Each sample says "the line passes between these two host times at this device time",
 * i.e. `lo ≤ α + s·δ ≤ hi`: a slab. Intersecting slabs is clipping a convex polygon by half-planes
 * (Sutherland–Hodgman with one edge at a time), which stays exact, needs no solver and costs O(vertices)
 * per constraint; in practice the polygon keeps well under 20 vertices.
 *
 * A mutable object with preallocated buffers, because the estimator rebuilds it for every query.
 */

/** Points closer than this (in µs of α) to a boundary count as inside, so rounding never empties a tight polygon. */
const EPSILON_US = 1e-6;

export class FeasibleRegion {
  private alpha: Float64Array = new Float64Array(64);
  private skew: Float64Array = new Float64Array(64);
  private nextAlpha: Float64Array = new Float64Array(64);
  private nextSkew: Float64Array = new Float64Array(64);
  private count = 0;

  /** Starts again from the rectangle α ∈ [alphaLo, alphaHi], s ∈ [skewLo, skewHi]. */
  reset(alphaLo: number, alphaHi: number, skewLo: number, skewHi: number): void {
    this.count = 4;
    this.alpha[0] = alphaLo;
    this.skew[0] = skewLo;
    this.alpha[1] = alphaHi;
    this.skew[1] = skewLo;
    this.alpha[2] = alphaHi;
    this.skew[2] = skewHi;
    this.alpha[3] = alphaLo;
    this.skew[3] = skewHi;
  }

  /** True when no line is left (the constraints contradict each other). */
  get empty(): boolean {
    return this.count === 0;
  }

  /**
   * Keeps the lines with `lo ≤ α + s·delta ≤ hi`. Returns false (and leaves the region empty) when no line
   * satisfies it together with the earlier constraints.
   */
  clipSlab(delta: number, lo: number, hi: number): boolean {
    this.clip(delta, hi, 1);
    if (this.count > 0) this.clip(delta, lo, -1);
    return this.count > 0;
  }

  /** The range of `α + s·delta` over the region: the host-time interval the lines allow at that point. */
  range(delta: number): { readonly min: number; readonly max: number } {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < this.count; i++) {
      const v = (this.alpha[i] as number) + (this.skew[i] as number) * delta;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { min, max };
  }

  /** The range of the skew s over the region. */
  skewRange(): { readonly min: number; readonly max: number } {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < this.count; i++) {
      const s = this.skew[i] as number;
      if (s < min) min = s;
      if (s > max) max = s;
    }
    return { min, max };
  }

  /** Keeps the half-plane `sign·(α + s·delta − bound) ≤ 0`. */
  private clip(delta: number, bound: number, sign: 1 | -1): void {
    const n = this.count;
    if (this.nextAlpha.length < 2 * n + 2) this.grow(2 * n + 2);
    const a = this.alpha;
    const s = this.skew;
    const na = this.nextAlpha;
    const ns = this.nextSkew;
    let m = 0;
    let pa = a[n - 1] as number;
    let ps = s[n - 1] as number;
    let pf = sign * (pa + ps * delta - bound);
    for (let i = 0; i < n; i++) {
      const ca = a[i] as number;
      const cs = s[i] as number;
      const cf = sign * (ca + cs * delta - bound);
      const curIn = cf <= EPSILON_US;
      const prevIn = pf <= EPSILON_US;
      if (curIn !== prevIn) {
        // The edge crosses the boundary: add the crossing point.
        const t = pf / (pf - cf);
        na[m] = pa + t * (ca - pa);
        ns[m] = ps + t * (cs - ps);
        m++;
      }
      if (curIn) {
        na[m] = ca;
        ns[m] = cs;
        m++;
      }
      pa = ca;
      ps = cs;
      pf = cf;
    }
    this.nextAlpha = a;
    this.nextSkew = s;
    this.alpha = na;
    this.skew = ns;
    this.count = m;
  }

  private grow(size: number): void {
    const copy = (from: Float64Array): Float64Array => {
      const to = new Float64Array(size * 2);
      to.set(from);
      return to;
    };
    this.alpha = copy(this.alpha);
    this.skew = copy(this.skew);
    this.nextAlpha = new Float64Array(size * 2);
    this.nextSkew = new Float64Array(size * 2);
  }
}
