/**
 * Native histogram bucket layouts, copied from shared/reference/engine-metrics.tsv (a test reads
 * the TSV and checks these against it). DJL/LMI and the simulator's own front door, platform and
 * quality exporters have no documented layout; theirs are marked as the simulator's choice.
 */

/** vLLM `vllm:time_to_first_token_seconds`. */
export const VLLM_TTFT = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0];
/** vLLM `inter_token_latency_seconds` and `request_time_per_output_token_seconds`. */
export const VLLM_ITL = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0];
/** vLLM request latencies: e2e, queue, inference, prefill, decode. */
export const VLLM_REQUEST_LATENCY = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0];
/** vLLM `vllm:iteration_tokens_total`. */
export const VLLM_ITERATION_TOKENS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
/** vLLM `vllm:request_params_n`. */
export const VLLM_PARAMS_N = [1, 2, 5, 10, 20];

/** SGLang `sglang:time_to_first_token_seconds` (default). */
export const SGLANG_TTFT = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400];
/** SGLang `sglang:inter_token_latency_seconds` (default). */
export const SGLANG_ITL = [0.002, 0.004, 0.006, 0.008, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.06, 0.08, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 2.0, 4.0, 6.0, 8.0];
/** SGLang `sglang:e2e_request_latency_seconds` (default). */
export const SGLANG_E2E = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600, 1200, 1800, 2400];
/** SGLang `sglang:queue_time_seconds`. */
export const SGLANG_QUEUE = [0.0, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000];
/** SGLang `sglang:prompt_tokens_histogram` and `generation_tokens_histogram` (default). */
export const SGLANG_TOKENS = [100, 300, 500, 700, 1000, 1500, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 12000, 15000, 20000, 22000, 25000, 30000, 35000, 40000, 66000, 99000, 132000, 300000, 600000, 900000, 1100000];
/** SGLang `sglang:num_retractions`. */
export const SGLANG_RETRACTIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 75, 100];

/** DJL/LMI request latencies, in seconds (exposed in microseconds). The simulator's choice: the TSV lists none. */
export const DJL_LATENCY = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300];
/** DJL/LMI per-token latency, in seconds (exposed in microseconds). The simulator's choice. */
export const DJL_TOKEN_LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.2, 0.5, 1];

/** Front-door overhead latency. The simulator's choice. */
export const OVERHEAD_LATENCY = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** Cold-start, container-start and scaling durations. The simulator's choice. */
export const LIFECYCLE_DURATION = [5, 10, 20, 30, 60, 90, 120, 180, 300, 600, 900, 1200, 1800, 3600];
/** Quality evaluation duration. The simulator's choice. */
export const EVALUATION_DURATION = [0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
