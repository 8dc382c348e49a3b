// The SLO generator's view of bucket layouts agrees with the dashboards' (docs/design/histogram-layouts.md),
// and the pack's default thresholds are bucket bounds of every layout their histograms have in the
// demo fleet (the simulator's engines and front door) and behind the gateway, so no source drops
// out of a default SLI.
import { describe, expect, it } from 'vitest';
import { layoutLabels } from '../../src/dashboards/index.js';
import { DURATION_BUCKETS, ITL_BUCKETS, TTFT_BUCKETS } from '../../src/gateway/buckets.js';
import { DEFAULT_SLOS, isSliHistogram, layoutSourceLabel, leMatcher, sloHistogram } from '../../src/rules/index.js';
import { CATALOG } from '../../src/semconv/index.js';
import { SGLANG_ITL, SGLANG_TTFT, SGLANG_E2E, VLLM_ITL, VLLM_REQUEST_LATENCY, VLLM_TTFT } from '../../src/sim/buckets.js';

/** The layouts each histogram has in the demo fleet and behind the gateway. */
const LAYOUTS: Readonly<Record<string, readonly (readonly number[])[]>> = {
  // The demo's front door buckets like vLLM (src/sim/frontdoor.ts); the gateway has its own.
  llm_client_time_to_first_token_seconds: [VLLM_TTFT, TTFT_BUCKETS],
  llm_client_request_duration_seconds: [VLLM_REQUEST_LATENCY, DURATION_BUCKETS],
  llm_client_inter_token_latency_seconds: [ITL_BUCKETS],
  llm_inter_token_latency_seconds: [VLLM_ITL, SGLANG_ITL],
  llm_time_to_first_token_seconds: [VLLM_TTFT, SGLANG_TTFT],
  llm_e2e_request_latency_seconds: [VLLM_REQUEST_LATENCY, SGLANG_E2E],
};

describe('SLO bucket layouts', () => {
  it.each(CATALOG.filter((m) => isSliHistogram(m.name)).map((m) => m.name))('%s: the source label is the dashboards\' first layout label', (name) => {
    expect(layoutSourceLabel(name)).toBe(layoutLabels(name)[0]);
  });

  it.each(DEFAULT_SLOS.filter((s) => s.thresholdSeconds !== undefined).map((s) => [s.slo, s] as const))('the default %s threshold is a bound of every layout of its histogram', (_kind, s) => {
    const h = sloHistogram(s) ?? '';
    const layouts = LAYOUTS[h];
    expect(layouts).toBeDefined();
    const re = new RegExp(`^(?:${leMatcher(s.thresholdSeconds ?? NaN)})$`);
    for (const bounds of layouts) expect(bounds.some((b) => re.test(String(b)) || re.test(b.toFixed(1)))).toBe(true);
  });
});
