/**
 * Seeded pseudo-random numbers for the simulator. Every random draw in src/sim goes through an
 * `Rng`, so a run is a pure function of its seed. Streams are forked by name (`rng.fork('load/x')`)
 * so that adding a replica or a fault does not shift the draws of every other part.
 */

/** FNV-1a over UTF-16 code units, as a 32-bit unsigned integer. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: number): [number, number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

/** sfc32 seeded through splitmix32: fast, 128-bit state, good enough for simulation. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  /** Creates a generator from a 32-bit seed (other numbers are truncated). */
  constructor(readonly seed: number) {
    let s = seed | 0;
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, v] = splitmix32(s);
      s = next;
      out.push(v);
    }
    [this.a, this.b, this.c, this.d] = out;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** An independent stream named `label`, derived from this generator's seed (not its position). */
  fork(label: string): Rng {
    return new Rng((this.seed ^ hashString(label)) >>> 0);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** A uniform integer in [lo, hiExclusive). */
  int(lo: number, hiExclusive: number): number {
    return lo + Math.floor(this.next() * (hiExclusive - lo));
  }

  /** True with probability `p`. */
  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** Exponentially distributed with the given rate (mean 1/rate). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }

  /** Normally distributed (Box–Muller, the spare value is kept for the next call). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return mean + sd * z;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return mean + sd * r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normally distributed with the given median and log-space standard deviation. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Poisson distributed count with the given mean (Knuth below 30, a rounded normal above). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(this.normal(mean, Math.sqrt(mean))));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** A hex string of `n` digits (GPU UUIDs, request ids). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
}
