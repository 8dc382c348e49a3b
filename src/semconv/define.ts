import type { SourceId, SourceMetric, SourceType } from './types.js';

/** The optional parts of a `SourceMetric`. */
export type SourceOptions = Omit<SourceMetric, 'source' | 'metric' | 'type'>;

/** Builds one source-metric row of the mapping tables. */
function from(source: SourceId, metric: string, type: SourceType, options: SourceOptions = {}): SourceMetric {
  return { source, metric, type, ...options };
}

type Row = (metric: string, type: SourceType, options?: SourceOptions) => SourceMetric;
const rowOf = (source: SourceId): Row => (metric, type, options) => from(source, metric, type, options);

/** A vLLM metric. */
export const vllm = rowOf('vllm');
/** An SGLang metric. */
export const sglang = rowOf('sglang');
/** A TGI metric. */
export const tgi = rowOf('tgi');
/** A trtllm-serve metric. */
export const trtllm = rowOf('trtllm');
/** A TensorRT-LLM Triton backend metric. */
export const trtllmTriton = rowOf('trtllm_triton');
/** A Triton core metric. */
export const triton = rowOf('triton');
/** A DJL Serving / LMI metric. */
export const djl = rowOf('djl');
/** A DCGM exporter metric. */
export const dcgm = rowOf('dcgm');
/** An OpenTelemetry GenAI metric. */
export const otel = rowOf('otel');
