/**
 * The engine performance model: how long one continuous-batching step takes on a given GPU for a
 * given model, and how many tokens the KV cache holds. It is a roofline in two terms: a step reads
 * the weights and the batch's KV cache from GPU memory (memory-bound decode) and computes every
 * scheduled token (compute-bound prefill); the slower term dominates and the faster one half
 * overlaps. So TTFT grows with prompt length (prefill compute), inter-token latency grows with batch
 * size and context (KV reads), and a mixture-of-experts model reads more experts as the batch grows.
 */
import type { EngineKind } from './spec.js';
import type { InstanceTypeSpec } from './data/instance-types.js';
import { kvBytesPerToken, type ModelSpec } from './data/models.js';

/** Per-engine serving defaults (vLLM V1, SGLang, DJL/LMI rolling batch). */
export interface EngineDefaults {
  /** KV block (page) size in tokens. */
  readonly blockSize: number;
  /** Most sequences in one batch (max_num_seqs / max_running_requests / max_rolling_batch_size). */
  readonly maxNumSeqs: number;
  /** Most tokens scheduled in one step (chunked prefill budget). */
  readonly maxBatchedTokens: number;
  /** Share of GPU memory the engine takes (gpu_memory_utilization / mem_fraction_static). */
  readonly gpuMemoryUtilization: number;
  /** Per-step framework overhead (scheduling, sampling, detokenizing), seconds. */
  readonly stepOverheadS: number;
  /** Process start before weights load, and warm-up (CUDA graphs, profiling) after, seconds. */
  readonly processStartS: number;
  readonly warmupS: number;
}

/** The defaults of each engine. */
export const ENGINE_DEFAULTS: Readonly<Record<EngineKind, EngineDefaults>> = {
  vllm: { blockSize: 16, maxNumSeqs: 256, maxBatchedTokens: 4096, gpuMemoryUtilization: 0.9, stepOverheadS: 0.004, processStartS: 15, warmupS: 25 },
  sglang: { blockSize: 1, maxNumSeqs: 256, maxBatchedTokens: 4096, gpuMemoryUtilization: 0.88, stepOverheadS: 0.003, processStartS: 12, warmupS: 20 },
  djl: { blockSize: 16, maxNumSeqs: 32, maxBatchedTokens: 4096, gpuMemoryUtilization: 0.9, stepOverheadS: 0.006, processStartS: 25, warmupS: 30 },
};

/** Memory bandwidth and tensor throughput an engine actually reaches. */
const BANDWIDTH_EFFICIENCY = 0.75;
const COMPUTE_EFFICIENCY = 0.5;
/** Activation workspace and CUDA graphs per GPU, MiB. */
const WORKSPACE_MIB = 1500;
const MIB = 1024 * 1024;

/** The fixed numbers of one replica (model × instance type × GPUs per copy × engine). */
export interface PerfModel {
  readonly engine: EngineKind;
  readonly tp: number;
  readonly blockSize: number;
  readonly maxNumSeqs: number;
  readonly maxBatchedTokens: number;
  /** KV-cache capacity in tokens (blocks × block size) and in blocks. */
  readonly kvCapacityTokens: number;
  readonly kvBlocks: number;
  readonly kvBytesPerToken: number;
  /** GPU memory per GPU, MiB: what the engine reserves, of which weights and KV cache. */
  readonly reservedMiBPerGpu: number;
  readonly weightsMiBPerGpu: number;
  readonly kvMiBPerGpu: number;
  readonly stepOverheadS: number;
  /** Seconds to read all weights once, to read one token of KV, to compute one token. */
  readonly weightReadS: number;
  readonly kvReadSPerToken: number;
  readonly computeSPerToken: number;
  readonly moe: ModelSpec['moe'];
  readonly gpuMemoryUtilization: number;
  /** Seconds to download the weights, load them into GPU memory, start the process, warm up. */
  readonly downloadS: number;
  readonly loadS: number;
  readonly processStartS: number;
  readonly warmupS: number;
}

/** Options of `buildPerfModel`. */
export interface PerfOptions {
  readonly downloadMBps: number;
  /** GPU memory already taken by something else at engine start (a leak, another process), MiB per GPU. */
  readonly foreignMiBPerGpu?: number;
  /** Multiplies the KV budget (a smaller `gpu_memory_utilization` than the default). */
  readonly kvBudgetFactor?: number;
}

/** Builds the performance model of one replica. */
export function buildPerfModel(model: ModelSpec, it: InstanceTypeSpec, tp: number, engine: EngineKind, o: PerfOptions): PerfModel {
  const d = ENGINE_DEFAULTS[engine];
  const gpu = it.gpu;
  const kvBytes = kvBytesPerToken(model);
  const weightsMiBPerGpu = (model.weightGiB * 1024) / tp;
  const reservedMiBPerGpu = gpu.memoryMiB * d.gpuMemoryUtilization;
  // The engine asks for its share of the whole GPU; what others hold (and the driver's 2%
  // reserve) comes out of the KV cache, leaving a little headroom.
  const free = gpu.memoryMiB * 0.98 - (o.foreignMiBPerGpu ?? 0);
  const usable = Math.min(reservedMiBPerGpu, free - 256);
  const kvMiBPerGpu = Math.max(0, (usable - weightsMiBPerGpu - WORKSPACE_MIB) * (o.kvBudgetFactor ?? 1));
  const kvTokensRaw = Math.floor((kvMiBPerGpu * tp * MIB) / kvBytes);
  const kvBlocks = Math.floor(kvTokensRaw / d.blockSize);
  const bandwidth = tp * gpu.memoryBandwidthGBps * 1e9 * BANDWIDTH_EFFICIENCY;
  const flops = tp * gpu.bf16Tflops * 1e12 * COMPUTE_EFFICIENCY;
  return {
    engine,
    tp,
    blockSize: d.blockSize,
    maxNumSeqs: d.maxNumSeqs,
    maxBatchedTokens: d.maxBatchedTokens,
    kvCapacityTokens: kvBlocks * d.blockSize,
    kvBlocks,
    kvBytesPerToken: kvBytes,
    reservedMiBPerGpu: Math.max(0, usable),
    weightsMiBPerGpu,
    kvMiBPerGpu,
    stepOverheadS: d.stepOverheadS + (tp > 1 ? 0.0015 : 0),
    weightReadS: (model.weightGiB * 1024 * MIB) / bandwidth,
    kvReadSPerToken: kvBytes / bandwidth,
    computeSPerToken: (2 * model.activeParamsB * 1e9) / flops,
    moe: model.moe,
    gpuMemoryUtilization: d.gpuMemoryUtilization,
    downloadS: (model.weightGiB * 1073.741824) / o.downloadMBps,
    loadS: weightsMiBPerGpu / 1024 / 2.5 + 2,
    processStartS: d.processStartS,
    warmupS: d.warmupS,
  };
}

/** The time split of one step. */
export interface StepTime {
  /** Wall time of the step, seconds. */
  totalS: number;
  /** Its compute-bound and memory-bound parts (DCGM tensor and DRAM activity follow these). */
  computeS: number;
  memoryS: number;
}

/**
 * One engine step: `seqs` sequences in the batch, `tokens` tokens computed (one per decoding
 * sequence plus the prefill chunk), `kvTokens` tokens of KV read, `prefillCtx` the mean context
 * length of the prefilled tokens (attention cost grows with it). `slowdown` ≥ 1 stretches it all
 * (a throttled GPU, a misconfigured engine).
 */
export function stepTime(p: PerfModel, seqs: number, tokens: number, kvTokens: number, prefillCtx: number, slowdown: number, out: StepTime): StepTime {
  let weightShare = 1;
  if (p.moe !== undefined) {
    const touched = 1 - Math.pow(1 - p.moe.topK / p.moe.experts, Math.max(1, seqs));
    weightShare = 1 - p.moe.expertWeightShare + p.moe.expertWeightShare * touched;
  }
  const memoryS = p.weightReadS * weightShare + p.kvReadSPerToken * kvTokens;
  const computeS = p.computeSPerToken * tokens * (1 + prefillCtx / 32768);
  const overlapped = Math.max(memoryS, computeS) + 0.5 * Math.min(memoryS, computeS);
  out.totalS = (p.stepOverheadS + overlapped) * slowdown;
  out.computeS = computeS * slowdown;
  out.memoryS = memoryS * slowdown;
  return out;
}

/**
 * The output tokens per second a replica reaches in a steady decode-only benchmark with 1,024-token
 * prompts and 256-token outputs at the largest batch its KV cache and `maxNumSeqs` allow.
 */
export function benchmarkOutputTokensPerSec(p: PerfModel, maxNumSeqs = p.maxNumSeqs): number {
  const ctx = 1024 + 128;
  const batch = Math.max(1, Math.min(maxNumSeqs, Math.floor(p.kvCapacityTokens / (1024 + 256))));
  const t = stepTime(p, batch, batch, batch * ctx, 0, 1, { totalS: 0, computeS: 0, memoryS: 0 });
  return batch / t.totalS;
}
