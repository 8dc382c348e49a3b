/**
 * Differences between our engine and Prometheus 2.42 that the differential test accepts, each
 * with its reason. Keep it short and honest: an engine bug is fixed, not listed; an entry belongs
 * here only when 3.x (what the engine implements) really answers differently from 2.42. Most such
 * differences are kept out of the queries altogether (queries.ts says how); the entries below
 * stay as queries because they pin a deliberate 3.x behaviour. An entry that no longer differs
 * fails the test, so the list cannot go stale.
 */

/** One accepted difference: the query text (as sent to Prometheus) and, optionally, the mode. */
export interface KnownDifference {
  readonly query: string;
  /** Only this kind of evaluation; both when absent. */
  readonly mode?: 'instant' | 'range';
  readonly reason: string;
}

/** The accepted differences. */
export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  {
    query: 'edge_temperature_celsius atan2 3',
    reason: '2.42 keeps __name__ through atan2; 2.46 and later drop it like every arithmetic operator (prometheus/prometheus#12595)',
  },
  {
    query: 'label_replace(vllm:kv_cache_usage_perc, "invalid-name", "x", "az", ".*")',
    reason: '2.42 accepts only [a-zA-Z_][a-zA-Z0-9_]* label names and fails; 3.x accepts any valid UTF-8 name',
  },
];
