// DCGM's tensor and DRAM activity follow the kind of work a GPU does: the compute-bound share of
// its steps drives the tensor pipe, the memory-bound share DRAM (src/cost's bound verdict reads them).
import { describe, expect, it } from 'vitest';
import { GPUS } from './data/instance-types.js';
import { GpuState, type GpuWork } from './gpu.js';

const work = (busyS: number, computeS: number, memoryS: number): GpuWork => ({ busyS, computeS, memoryS, engineMiB: 20_000, foreignMiB: 0, loadingWeights: false, tensorParallel: false, throttled: false });

/** The activities after a minute of `w` every second. */
function settle(w: GpuWork): GpuState {
  const g = new GpuState(GPUS.L4, 0, 'GPU-0', '00000000:10:00.0');
  for (let i = 0; i < 60; i++) g.update(1, w);
  return g;
}

describe('GPU activity follows the workload', () => {
  it.each([
    ['decode (memory-bound steps)', work(0.9, 0.1, 0.8), 'memory'],
    ['prefill (compute-bound steps)', work(0.9, 0.8, 0.1), 'compute'],
  ])('%s', (_name, w, want) => {
    const g = settle(w);
    expect(g.dramActive > g.tensorActive ? 'memory' : 'compute').toBe(want);
  });

  it('is idle when the GPU does nothing', () => {
    const g = settle(work(0, 0, 0));
    expect([g.tensorActive, g.dramActive, g.utilPct]).toEqual([0, 0, 0]);
  });

  it('scales with how busy the GPU is', () => {
    expect(settle(work(0.4, 0.1, 0.3)).dramActive).toBeLessThan(settle(work(0.9, 0.2, 0.7)).dramActive);
  });
});
