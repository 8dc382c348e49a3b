/**
 * The compute- vs memory-bound verdict of one replica (docs/design/cost-bound.md). The roofline says
 * a decode step reads every weight (and the batch's KV cache) to compute one token per sequence, so
 * decode is memory-bound until the batch is very large, and prefill computes a whole prompt per
 * weight read, so it is compute-bound. The engine's FLOP and byte counters, where it exposes them,
 * say it directly (MFU against MBU); otherwise DCGM's activity does (tensor pipe against DRAM).
 */
import type { BoundKind, BoundVerdict } from './types.js';

/** Below this activity (tensor and DRAM both) a serving replica counts as idle. */
export const IDLE_ACTIVITY = 0.03;

/** Peak dense BF16 tensor rate (TFLOP/s) and memory bandwidth (GB/s) per GPU, by DCGM's model name (vendors' data sheets). */
export const GPU_PEAKS: Readonly<Record<string, { readonly tflops: number; readonly gbps: number }>> = {
  'NVIDIA A10G': { tflops: 70, gbps: 600 },
  'NVIDIA A10': { tflops: 125, gbps: 600 },
  'NVIDIA L4': { tflops: 121, gbps: 300 },
  'NVIDIA L40S': { tflops: 362, gbps: 864 },
  'NVIDIA A100-SXM4-40GB': { tflops: 312, gbps: 1555 },
  'NVIDIA A100-SXM4-80GB': { tflops: 312, gbps: 2039 },
  'NVIDIA A100 80GB PCIe': { tflops: 312, gbps: 1935 },
  'NVIDIA H100 80GB HBM3': { tflops: 989, gbps: 3350 },
};

/** The readings of one replica a verdict is made from. */
export type BoundInputs = BoundVerdict['inputs'];

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/**
 * The verdict. `serving` is false when the replica generates nothing and runs no request. MFU/MBU,
 * when both are present, win: the larger utilization is the roof the replica is under. Otherwise the
 * tensor pipe (SM activity where tensor is missing) against DRAM activity (memory-copy utilization
 * where DRAM is missing): the busier side binds.
 */
export function boundOf(inputs: BoundInputs, serving: boolean): { bound: BoundKind; reason: string } {
  if (!serving) return { bound: 'idle', reason: 'serves nothing: no request ran over the window' };
  if (inputs.mfu !== null && inputs.mbu !== null) {
    const bound = inputs.mfu >= inputs.mbu ? 'compute' : 'memory';
    return { bound, reason: `MFU ${pct(inputs.mfu)} against MBU ${pct(inputs.mbu)} (engine counters): ${bound === 'memory' ? 'decode-heavy, memory-bound' : 'prefill-heavy, compute-bound'}` };
  }
  const compute = inputs.tensorActive ?? inputs.smActive;
  const memory = inputs.dramActive ?? inputs.memCopyUtil;
  if (compute === null || memory === null) return { bound: 'unknown', reason: 'no DCGM profiling metrics (tensor and DRAM activity) and no engine FLOP/byte counters' };
  const cName = inputs.tensorActive !== null ? 'tensor' : 'SM';
  const mName = inputs.dramActive !== null ? 'DRAM' : 'memory copy';
  if (compute < IDLE_ACTIVITY && memory < IDLE_ACTIVITY) return { bound: 'idle', reason: `${mName} ${pct(memory)} and ${cName} ${pct(compute)} busy: the GPU barely works` };
  if (memory >= compute) return { bound: 'memory', reason: `${mName} ${pct(memory)} busy against ${cName} ${pct(compute)}: decode-heavy, memory-bound` };
  return { bound: 'compute', reason: `${cName} ${pct(compute)} busy against ${mName} ${pct(memory)}: prefill-heavy, compute-bound` };
}

/** MFU and MBU from the engine's FLOP and byte rates over `gpus` GPUs of `gpuModel` (null without counters or a known GPU). */
export function utilizations(flopsPerS: number | undefined, bytesPerS: number | undefined, gpuModel: string | undefined, gpus: number): { mfu: number | null; mbu: number | null } {
  const peak = gpuModel === undefined ? undefined : GPU_PEAKS[gpuModel];
  if (peak === undefined || gpus <= 0) return { mfu: null, mbu: null };
  return {
    mfu: flopsPerS === undefined ? null : flopsPerS / (peak.tflops * 1e12 * gpus),
    mbu: bytesPerS === undefined ? null : bytesPerS / (peak.gbps * 1e9 * gpus),
  };
}
