/**
 * The load generator of one component: a Poisson process whose rate follows a diurnal sine, random
 * bursts and fault multipliers; prompt and output lengths drawn from the component's distributions
 * (scaled by faults such as a prompt-length shift); a share of prompts starts with a cached prefix.
 */
import type { Rng } from './rng.js';
import type { LengthDistribution, LoadSpec } from './spec.js';

/** Draws one length from a distribution (rounded, clipped, at least 1). */
export function drawLength(d: LengthDistribution, rng: Rng): number {
  switch (d.kind) {
    case 'fixed':
      return Math.max(1, Math.round(d.value));
    case 'uniform':
      return Math.max(1, Math.round(rng.uniform(d.min, d.max)));
    case 'lognormal':
      return Math.max(1, Math.round(Math.min(d.max, Math.max(d.min, rng.lognormal(d.median, d.sigma)))));
  }
}

/** The largest output a distribution allows: clients send it as `max_tokens`. */
export function maxLength(d: LengthDistribution): number {
  return d.kind === 'fixed' ? d.value : d.max;
}

/** One generated arrival. */
export interface Arrival {
  arrivalMs: number;
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  maxTokens: number;
}

/** Scales applied by faults. */
export interface LoadScales {
  rateMultiplier: number;
  promptScale: number;
  outputScale: number;
}

/** Generates the arrivals of one component tick by tick. */
export class LoadGenerator {
  private burstStartMs = Number.POSITIVE_INFINITY;
  private burstEndMs = Number.POSITIVE_INFINITY;

  /** A generator starting at `startMs`. */
  constructor(
    readonly spec: LoadSpec,
    private readonly rng: Rng,
    private readonly startMs: number,
  ) {
    this.scheduleBurst(startMs);
  }

  private scheduleBurst(fromMs: number): void {
    const b = this.spec.bursts;
    if (b === undefined) return;
    this.burstStartMs = fromMs + this.rng.exponential(1 / b.meanGapMs);
    this.burstEndMs = this.burstStartMs + b.durationMs;
  }

  /** The arrival rate at `tMs` before fault multipliers, requests per second. */
  baseRate(tMs: number): number {
    const s = this.spec;
    const diurnal = 1 + s.diurnalAmplitude * Math.sin((2 * Math.PI * (tMs - this.startMs)) / s.diurnalPeriodMs);
    const burst = tMs >= this.burstStartMs && tMs < this.burstEndMs ? (s.bursts?.multiplier ?? 1) : 1;
    return s.ratePerSec * Math.max(0, diurnal) * burst;
  }

  /** Arrivals in [t0Ms, t1Ms), in time order. */
  generate(t0Ms: number, t1Ms: number, scales: LoadScales): Arrival[] {
    if (t0Ms >= this.burstEndMs) this.scheduleBurst(t0Ms);
    const rate = this.baseRate(t0Ms) * scales.rateMultiplier;
    const n = this.rng.poisson((rate * (t1Ms - t0Ms)) / 1000);
    const out: Arrival[] = [];
    if (n === 0) return out;
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(this.rng.uniform(t0Ms, t1Ms));
    times.sort((a, b2) => a - b2);
    const s = this.spec;
    const maxTokens = maxLength(s.output);
    for (const arrivalMs of times) {
      const promptTokens = Math.max(1, Math.round(drawLength(s.prompt, this.rng) * scales.promptScale));
      const natural = Math.max(1, Math.round(drawLength(s.output, this.rng) * scales.outputScale));
      const hit = s.prefixShare !== undefined && this.rng.bernoulli(s.prefixShare);
      const cachedTokens = hit ? Math.min(s.prefixTokens ?? 0, promptTokens - 1) : 0;
      out.push({ arrivalMs, promptTokens, cachedTokens, outputTokens: Math.min(natural, maxTokens), maxTokens });
    }
    return out;
  }
}
