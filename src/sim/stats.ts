/**
 * What one engine process has counted since it started, in engine-neutral form. The renderers
 * (expose-*.ts) read it and print each engine's native names. A restart makes a new `EngineStats`,
 * so every counter starts again from zero, as a real process does.
 */
import * as B from './buckets.js';
import { Histogram, buckets125 } from './histogram.js';
import type { LatencyTruth } from './latency-truth.js';
import type { SimRequest } from './request.js';
import type { EngineKind } from './spec.js';

/** The request histograms an engine keeps; `null` where the engine has no such metric. */
export interface EngineHistograms {
  readonly ttft: Histogram | null;
  readonly itl: Histogram | null;
  readonly tpot: Histogram | null;
  readonly e2e: Histogram | null;
  readonly queue: Histogram | null;
  readonly inference: Histogram | null;
  readonly prefill: Histogram | null;
  readonly decode: Histogram | null;
  readonly promptTokens: Histogram | null;
  readonly generationTokens: Histogram | null;
  readonly maxTokens: Histogram | null;
  readonly paramsN: Histogram | null;
  readonly iterationTokens: Histogram | null;
  readonly preemptions: Histogram | null;
}

const h = (b: readonly number[]): Histogram => new Histogram(b);

function histogramsFor(engine: EngineKind, maxModelLen: number): EngineHistograms {
  switch (engine) {
    case 'vllm': {
      const tokens = buckets125(maxModelLen);
      const lat = B.VLLM_REQUEST_LATENCY;
      return {
        ttft: h(B.VLLM_TTFT),
        itl: h(B.VLLM_ITL),
        tpot: h(B.VLLM_ITL),
        e2e: h(lat),
        queue: h(lat),
        inference: h(lat),
        prefill: h(lat),
        decode: h(lat),
        promptTokens: h(tokens),
        generationTokens: h(tokens),
        maxTokens: h(tokens),
        paramsN: h(B.VLLM_PARAMS_N),
        iterationTokens: h(B.VLLM_ITERATION_TOKENS),
        preemptions: null,
      };
    }
    case 'sglang':
      return {
        ttft: h(B.SGLANG_TTFT),
        itl: h(B.SGLANG_ITL),
        tpot: null,
        e2e: h(B.SGLANG_E2E),
        queue: h(B.SGLANG_QUEUE),
        inference: null,
        prefill: null,
        decode: null,
        promptTokens: h(B.SGLANG_TOKENS),
        generationTokens: h(B.SGLANG_TOKENS),
        maxTokens: null,
        paramsN: null,
        iterationTokens: null,
        preemptions: h(B.SGLANG_RETRACTIONS),
      };
    case 'djl':
      return {
        ttft: null,
        itl: null,
        tpot: h(B.DJL_TOKEN_LATENCY),
        e2e: h(B.DJL_LATENCY),
        queue: h(B.DJL_LATENCY),
        inference: h(B.DJL_LATENCY),
        prefill: null,
        decode: null,
        promptTokens: null,
        generationTokens: null,
        maxTokens: null,
        paramsN: null,
        iterationTokens: null,
        preemptions: null,
      };
  }
}

/** Counters and histograms of one engine process. */
export class EngineStats {
  promptTokens = 0;
  generationTokens = 0;
  /** Prompt tokens served from the prefix cache, and prompt tokens looked up in it. */
  cachedTokens = 0;
  prefixQueryTokens = 0;
  finishedStop = 0;
  finishedLength = 0;
  finishedAbort = 0;
  preemptions = 0;
  retractedInputTokens = 0;
  retractedOutputTokens = 0;
  /** HTTP responses by status class, as the engine's own server counts them. */
  http2xx = 0;
  http4xx = 0;
  http5xx = 0;
  /** Seconds the GPU was busy, and the compute- and memory-bound parts of that time. */
  busyS = 0;
  computeS = 0;
  memoryS = 0;
  prefillComputeTokens = 0;
  /** Steps run and sequences summed over steps (mean batch size = seqSteps / steps). */
  steps = 0;
  seqSteps = 0;
  readonly h: EngineHistograms;

  /** Empty statistics with the histogram layout of `engine`. */
  constructor(
    readonly engine: EngineKind,
    maxModelLen: number,
    /** Virtual time the process started, and how long download, weight load and the whole start took (s). */
    readonly processStartMs: number,
  ) {
    this.h = histogramsFor(engine, maxModelLen);
  }

  /** Requests finished for any reason. */
  get finished(): number {
    return this.finishedStop + this.finishedLength + this.finishedAbort;
  }
}

/**
 * Records a finished (or aborted) request's latencies and lengths in the engine's histograms, and
 * its end-to-end latency and time per output token in `truth` (served on `instance`) where the
 * engine has those histograms.
 */
export function recordFinished(s: EngineStats, r: SimRequest, tMs: number, truth?: LatencyTruth, instance = ''): void {
  const h = s.h;
  const sched = r.scheduledMs >= 0 ? r.scheduledMs : tMs;
  const first = r.firstTokenMs >= 0 ? r.firstTokenMs : tMs;
  const e2eS = (tMs - r.arrivalMs) / 1000;
  h.e2e?.observe(e2eS);
  if (h.e2e !== null) truth?.record('e2e', tMs, e2eS, 1, instance);
  h.queue?.observe((sched - r.arrivalMs) / 1000);
  h.inference?.observe((tMs - sched) / 1000);
  h.prefill?.observe((first - sched) / 1000);
  h.decode?.observe((tMs - first) / 1000);
  h.promptTokens?.observe(r.promptTokens);
  h.generationTokens?.observe(r.generated);
  h.maxTokens?.observe(r.maxTokens);
  h.paramsN?.observe(1);
  h.preemptions?.observe(r.preemptions);
  if (r.generated > 1 && h.tpot !== null) {
    const tpotS = (tMs - first) / 1000 / (r.generated - 1);
    h.tpot.observe(tpotS);
    truth?.record('tpot', tMs, tpotS, 1, instance);
  }
}
