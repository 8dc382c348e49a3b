/**
 * `gpu-memory-saturation`: an instance's GPU framebuffer fills past what engines reserve (a foreign
 * process, a leak): the next allocation fails with CUDA OOM and the engine restarts with a smaller
 * KV cache. DCGM's used and free memory per instance; the largest incident point counts, because the
 * crash that follows empties the GPU for a moment.
 */
import { groupBy, onsetOf, pct, ramp, scopeOf, type Detector, type Finding } from '../detector.js';

export const gpuMemorySaturation: Detector = {
  cause: 'gpu-memory-saturation',
  looksAt: 'GPU framebuffer use per instance (DCGM used / (used + free)) above what engines reserve',
  signals: {
    used: { query: 'max by (endpoint, instance) (gpu_memory_used_bytes{%} / (gpu_memory_used_bytes{%} + gpu_memory_free_bytes{%}))' },
  },
  detect(readings, ctx) {
    const out: Finding[] = [];
    for (const [, [r]] of groupBy(readings.used ?? [], ['endpoint', 'instance'])) {
      const peak = r.incidentMax ?? 0;
      const base = r.baseline ?? 0;
      const score = peak - base >= 0.02 ? ramp(peak, 0.94, 0.975) : 0;
      if (score <= 0) continue;
      const scope = scopeOf(r, ['endpoint', 'instance']);
      out.push({
        cause: 'gpu-memory-saturation',
        score,
        scope,
        onsetMs: onsetOf(r),
        instances: [scope.instance ?? ''],
        summary: `GPU memory of ${scope.instance ?? 'an instance'} at ${pct(peak)} (baseline ${pct(base)}): find the process outside the engine that holds it (nvidia-smi) before the engine hits CUDA OOM again.`,
        evidence: [ctx.evidence('used', scope, r)],
      });
    }
    return out.length > 0 ? out : { ruledOut: 'No GPU used more memory than the engines reserve.' };
  },
};
