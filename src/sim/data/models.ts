/**
 * Model architectures the simulator serves: the numbers that set weight size (download and load
 * time, GPU memory), KV-cache bytes per token (the KV budget) and FLOPs per token (prefill speed).
 */

/** A model's shape, as far as serving cost goes. */
export interface ModelSpec {
  /** The served model name (`model_name` label, `model` target label, OpenAI `model` field). */
  readonly name: string;
  /** Total and active (per token) parameters, billions; equal for dense models. */
  readonly totalParamsB: number;
  readonly activeParamsB: number;
  /** Weight bytes on disk and in GPU memory, GiB. */
  readonly weightGiB: number;
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** Bytes per KV element (2 for BF16/FP16 KV cache). */
  readonly kvDtypeBytes: number;
  readonly maxContextTokens: number;
  /** Mixture of experts: expert count, experts per token and the share of weights in experts. */
  readonly moe?: { readonly experts: number; readonly topK: number; readonly expertWeightShare: number };
}

/** The model catalog, keyed by served name. */
export const MODELS: Readonly<Record<string, ModelSpec>> = Object.fromEntries(
  (
    [
      {
        name: 'openai/gpt-oss-20b',
        totalParamsB: 20.9,
        activeParamsB: 3.6,
        weightGiB: 12.8,
        layers: 24,
        kvHeads: 8,
        headDim: 64,
        kvDtypeBytes: 2,
        maxContextTokens: 131072,
        moe: { experts: 32, topK: 4, expertWeightShare: 0.9 },
      },
      { name: 'Qwen/Qwen2.5-7B-Instruct', totalParamsB: 7.6, activeParamsB: 7.6, weightGiB: 14.2, layers: 28, kvHeads: 4, headDim: 128, kvDtypeBytes: 2, maxContextTokens: 32768 },
      { name: 'meta-llama/Llama-3.1-8B-Instruct', totalParamsB: 8.0, activeParamsB: 8.0, weightGiB: 14.96, layers: 32, kvHeads: 8, headDim: 128, kvDtypeBytes: 2, maxContextTokens: 131072 },
      { name: 'meta-llama/Llama-3.1-70B-Instruct', totalParamsB: 70.6, activeParamsB: 70.6, weightGiB: 131.4, layers: 80, kvHeads: 8, headDim: 128, kvDtypeBytes: 2, maxContextTokens: 131072 },
    ] satisfies ModelSpec[]
  ).map((m) => [m.name, m]),
);

/** KV-cache bytes one token occupies across all layers (K and V). */
export function kvBytesPerToken(m: ModelSpec): number {
  return 2 * m.layers * m.kvHeads * m.headDim * m.kvDtypeBytes;
}

/** Looks up a model or throws naming the known ones. */
export function modelSpec(name: string): ModelSpec {
  const m = MODELS[name] as ModelSpec | undefined;
  if (m === undefined) throw new Error(`sim: unknown model ${JSON.stringify(name)} (known: ${Object.keys(MODELS).join(', ')})`);
  return m;
}
