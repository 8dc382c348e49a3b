import { dcgm, sglang, vllm } from './define.js';
import { SOURCES } from './sources.js';
import type { SourceMetric } from './types.js';

/** An engine metric the catalog leaves out on purpose, with the reason. */
export interface DroppedMetric extends SourceMetric {
  /** Why it has no catalog name: what it measures and where that is covered, if anywhere. */
  readonly reason: string;
}

const drop = (row: SourceMetric, reason: string): DroppedMetric => ({ ...row, reason });

/**
 * Engine-native metrics the normalizer drops (writes only with `keepRaw`), so that the store holds
 * catalog names and nothing that merely repeats one or measures nothing about inference. A name an
 * engine adds later, not listed here, still passes unchanged: nothing unknown is dropped.
 */
export const DROPPED_METRICS: readonly DroppedMetric[] = [
  drop(
    vllm('vllm:request_max_num_generation_tokens', 'histogram'),
    'The longest output among a request\'s n parallel samples: with n = 1 (llm_request_params_n says) it repeats llm_request_generation_tokens observation for observation.',
  ),
  drop(sglang('sglang:func_latency_seconds', 'histogram'), 'Legacy profiling of internal Python functions (label name="generate_request"), not a request latency; llm_e2e_request_latency_seconds covers the request.'),
  drop(dcgm('DCGM_FI_DEV_VGPU_LICENSE_STATUS', 'gauge'), 'The vGPU software licence state, 0 on bare-metal and passthrough GPUs: configuration, not a measurement of the GPU or of inference.'),
];

/** One exposed series name of a dropped metric. */
export interface DroppedSeries {
  /** The series name as exposed (suffix included: `_bucket`, `_total`, ...). */
  readonly name: string;
  readonly metric: DroppedMetric;
  /** True when the name alone does not identify the engine (a hint must name it). */
  readonly needsHint: boolean;
}

/** The series names the dropped metrics are exposed under (histogram members, `_total` spellings). */
export function droppedSeries(): DroppedSeries[] {
  return DROPPED_METRICS.flatMap((m) => {
    const names =
      m.type === 'histogram'
        ? ['_bucket', '_sum', '_count'].map((s) => m.metric + s)
        : m.type === 'summary'
          ? [m.metric, `${m.metric}_sum`, `${m.metric}_count`]
          : m.type === 'counter' && !m.metric.endsWith('_total')
            ? [m.metric, `${m.metric}_total`]
            : [m.metric];
    return names.map((name) => ({ name, metric: m, needsHint: m.needsHint === true || SOURCES[m.source].needsHint }));
  });
}
