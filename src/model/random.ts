/**
 * A small, fast, seeded uniform generator (mulberry32) returning floats in [0, 1): the one source
 * of reproducible randomness for sampling decisions, test fixtures and benchmark data sets
 * (docs/goals.md: randomness is injected as a seed). Not for anything that needs unpredictability.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
