import type { ConversionId, SourceId } from './types.js';

/** A label the normalizer renames for every series of one source. */
export interface LabelRename {
  readonly from: string;
  readonly to: string;
  /** `integer`: rename only when the value is a non-negative integer (vLLM's `engine` = dp index). */
  readonly when?: 'integer';
}

/** What the normalizer knows about one source of engine-native series. */
export interface SourceInfo {
  readonly id: SourceId;
  readonly title: string;
  /** The value of the `source` column in shared/reference/engine-metrics.tsv. */
  readonly tsvSource: string;
  /**
   * The `engine` label the unified series get, and how: `set` always (after the source's own
   * `engine` label, if any, was renamed), `if_absent` only when the series has none, `none` never
   * (an exporter is not an engine: the scraper's target metadata decides).
   */
  readonly engineLabel: string;
  readonly engineMode: 'set' | 'if_absent' | 'none';
  /** Name prefixes that identify the source without a hint. */
  readonly prefixes: readonly string[];
  /** True when the names are generic, so every metric of the source needs a hint. */
  readonly needsHint: boolean;
  /** Words that, found in a hint label's value, name this source (`job="djl-lmi"` → djl). */
  readonly hintTokens: readonly string[];
  readonly labelRenames: readonly LabelRename[];
  /** Values that are DCGM's "blank" sentinels rather than measurements are dropped. */
  readonly dropBlankSentinels?: boolean;
}

const r = (from: string, to: string, when?: 'integer'): LabelRename => (when === undefined ? { from, to } : { from, to, when });

/** OpenTelemetry attribute names, both as sent (dots) and as Prometheus translation writes them. */
const otelRenames = (pairs: readonly [string, string][]): LabelRename[] =>
  pairs.flatMap(([from, to]) => [r(from, to), r(from.replaceAll('.', '_'), to)]);

/** Every source, keyed by id. */
export const SOURCES: Readonly<Record<SourceId, SourceInfo>> = {
  vllm: {
    id: 'vllm',
    title: 'vLLM (V1 engine; V0 and renamed names as legacy sources)',
    tsvSource: 'vllm',
    engineLabel: 'vllm',
    engineMode: 'set',
    prefixes: ['vllm:'],
    needsHint: false,
    hintTokens: ['vllm'],
    labelRenames: [
      r('model_name', 'model'),
      r('engine', 'dp_rank', 'integer'),
      r('finished_reason', 'finish_reason'),
      r('status', 'status_class'),
    ],
  },
  sglang: {
    id: 'sglang',
    title: 'SGLang',
    tsvSource: 'sglang',
    engineLabel: 'sglang',
    engineMode: 'set',
    prefixes: ['sglang:'],
    needsHint: false,
    hintTokens: ['sglang'],
    labelRenames: [r('model_name', 'model')],
  },
  tgi: {
    id: 'tgi',
    title: 'Text Generation Inference (TGI)',
    tsvSource: 'tgi',
    engineLabel: 'tgi',
    engineMode: 'set',
    prefixes: ['tgi_'],
    needsHint: false,
    hintTokens: ['tgi'],
    labelRenames: [r('err', 'error_class'), r('method', 'phase')],
  },
  trtllm: {
    id: 'trtllm',
    title: 'TensorRT-LLM trtllm-serve (/prometheus/metrics)',
    tsvSource: 'trtllm-serve',
    engineLabel: 'trtllm',
    engineMode: 'set',
    prefixes: ['trtllm_'],
    needsHint: false,
    hintTokens: ['trtllm', 'tensorrt'],
    labelRenames: [r('model_name', 'model'), r('finished_reason', 'finish_reason'), r('http_code', 'status_code')],
  },
  trtllm_triton: {
    id: 'trtllm_triton',
    title: 'TensorRT-LLM Triton backend (inflight_batcher_llm custom metrics)',
    tsvSource: 'trtllm-triton-backend',
    engineLabel: 'triton',
    engineMode: 'set',
    prefixes: ['nv_trt_llm_', 'nv_llm_'],
    needsHint: false,
    hintTokens: ['triton'],
    labelRenames: [],
  },
  triton: {
    id: 'triton',
    title: 'Triton Inference Server core',
    tsvSource: 'triton',
    engineLabel: 'triton',
    engineMode: 'set',
    prefixes: ['nv_'],
    needsHint: false,
    hintTokens: ['triton'],
    labelRenames: [r('reason', 'error_class')],
  },
  djl: {
    id: 'djl',
    title: 'DJL Serving / LMI (SERVING_PROMETHEUS=true)',
    tsvSource: 'djl-serving',
    engineLabel: 'djl',
    engineMode: 'set',
    prefixes: [],
    needsHint: true,
    hintTokens: ['djl', 'lmi'],
    labelRenames: [r('Model', 'model')],
  },
  dcgm: {
    id: 'dcgm',
    title: 'NVIDIA DCGM exporter',
    tsvSource: 'dcgm-exporter',
    engineLabel: 'dcgm',
    engineMode: 'none',
    prefixes: ['DCGM_'],
    needsHint: false,
    hintTokens: ['dcgm'],
    labelRenames: [
      r('UUID', 'gpu_uuid'),
      r('modelName', 'gpu_model'),
      r('Hostname', 'hostname'),
      r('DCGM_FI_DRIVER_VERSION', 'driver_version'),
      r('GPU_I_PROFILE', 'gpu_instance_profile'),
      r('GPU_I_ID', 'gpu_instance_id'),
    ],
    dropBlankSentinels: true,
  },
  otel: {
    id: 'otel',
    title: 'OpenTelemetry GenAI semantic conventions (metrics over OTLP)',
    tsvSource: 'otel-genai',
    engineLabel: 'otel',
    engineMode: 'if_absent',
    prefixes: ['gen_ai.', 'gen_ai_'],
    needsHint: false,
    hintTokens: ['otel'],
    labelRenames: otelRenames([
      ['gen_ai.request.model', 'model'],
      ['gen_ai.response.model', 'response_model'],
      ['gen_ai.operation.name', 'operation'],
      ['gen_ai.provider.name', 'provider'],
      ['gen_ai.token.type', 'token_type'],
      ['error.type', 'error_type'],
      ['server.address', 'server_address'],
      ['server.port', 'server_port'],
    ]),
  },
};

/** All source ids, in documentation order. */
export const SOURCE_IDS: readonly SourceId[] = Object.keys(SOURCES) as SourceId[];

/** A unit conversion: `value * multiply / divide` (division keeps decimal bounds exact-looking). */
export interface Conversion {
  readonly id: ConversionId;
  readonly multiply: number;
  readonly divide: number;
  /** Human form for docs: `µs → s`. */
  readonly text: string;
}

const conv = (id: ConversionId, multiply: number, divide: number, text: string): Conversion => ({ id, multiply, divide, text });

/** Every conversion the mapping tables use. */
export const CONVERSIONS: Readonly<Record<ConversionId, Conversion>> = {
  none: conv('none', 1, 1, ''),
  us_to_seconds: conv('us_to_seconds', 1, 1e6, 'µs → s'),
  ms_to_seconds: conv('ms_to_seconds', 1, 1e3, 'ms → s'),
  ns_to_seconds: conv('ns_to_seconds', 1, 1e9, 'ns → s'),
  mib_to_bytes: conv('mib_to_bytes', 1_048_576, 1, 'MiB → bytes'),
  mb_to_bytes: conv('mb_to_bytes', 1e6, 1, 'MB → bytes'),
  gb_to_bytes: conv('gb_to_bytes', 1e9, 1, 'GB → bytes'),
  percent_to_ratio: conv('percent_to_ratio', 1, 100, '% → ratio 0–1'),
  mj_to_joules: conv('mj_to_joules', 1, 1e3, 'mJ → J'),
  mhz_to_hertz: conv('mhz_to_hertz', 1e6, 1, 'MHz → Hz'),
};
