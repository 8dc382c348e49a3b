/**
 * The gateway's own choices for the series it writes: the `job` label and the bucket layouts of
 * its histograms (docs/design/histogram-layouts.md). Names, types, labels and help texts are the
 * catalog's (src/semconv), which the gateway imports.
 */

/** The `job` label of every series the gateway writes. */
export const GATEWAY_JOB = 'gateway';

/** Time to first token: engines' TTFT layout with finer steps below 100 ms. */
export const TTFT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 20, 40, 80];
/** Inter-chunk latency. */
export const ITL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2.5, 5];
/** End-to-end and model latency. */
export const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 45, 60, 120, 300, 600];
/** Gateway overhead: sub-millisecond resolution. */
export const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** Prompt and completion tokens per request. */
export const TOKEN_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];
