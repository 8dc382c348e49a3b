import { describe, expect, it } from 'vitest';
import { boundOf, utilizations, type BoundInputs } from './bound.js';

const none: BoundInputs = { smActive: null, tensorActive: null, dramActive: null, memCopyUtil: null, mfu: null, mbu: null };

describe('boundOf', () => {
  it.each([
    ['decode: DRAM over tensor', { ...none, tensorActive: 0.1, dramActive: 0.7 }, true, 'memory', 'DRAM 70% busy against tensor 10%: decode-heavy, memory-bound'],
    ['prefill: tensor over DRAM', { ...none, tensorActive: 0.6, dramActive: 0.2 }, true, 'compute', 'tensor 60% busy against DRAM 20%: prefill-heavy, compute-bound'],
    ['SM and memory copy stand in', { ...none, smActive: 0.5, memCopyUtil: 0.3 }, true, 'compute', 'SM 50% busy against memory copy 30%: prefill-heavy, compute-bound'],
    ['MFU/MBU win over DCGM', { ...none, tensorActive: 0.6, dramActive: 0.2, mfu: 0.1, mbu: 0.5 }, true, 'memory', 'MFU 10% against MBU 50% (engine counters): decode-heavy, memory-bound'],
    ['a GPU that barely works', { ...none, tensorActive: 0.01, dramActive: 0.02 }, true, 'idle', 'DRAM 2% and tensor 1% busy: the GPU barely works'],
    ['no request running', { ...none, tensorActive: 0.5, dramActive: 0.5 }, false, 'idle', 'serves nothing: no request ran over the window'],
    ['no inputs', none, true, 'unknown', 'no DCGM profiling metrics (tensor and DRAM activity) and no engine FLOP/byte counters'],
  ])('%s', (_name, inputs, serving, bound, reason) => {
    expect(boundOf(inputs, serving)).toEqual({ bound, reason });
  });
});

describe('utilizations', () => {
  it('divides by the GPUs peak', () => {
    const u = utilizations(121e12, 150e9, 'NVIDIA L4', 2);
    expect(u.mfu).toBeCloseTo(0.5, 9);
    expect(u.mbu).toBeCloseTo(0.25, 9);
  });
  it('is null for an unknown GPU', () => {
    expect(utilizations(1, 1, 'NVIDIA X', 1)).toEqual({ mfu: null, mbu: null });
  });
});
