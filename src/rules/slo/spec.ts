/**
 * Service-level objectives as data: what a user (or the default rule pack) states about TTFT,
 * inter-token latency, end-to-end latency and availability, and the checks that make a set of
 * objectives safe to turn into rules (`sloRuleGroups`). Design: docs/design/slo.md.
 */
import type { DurationMs } from '../../model/index.js';
import { catalogMetric } from '../../semconv/index.js';

/** The kinds of SLI: three latencies (share of requests under a threshold) and availability (share of non-5xx requests). */
export const SLO_KINDS = ['ttft', 'itl', 'e2e', 'availability'] as const;

/** One of `SLO_KINDS`; the value of the `slo` label of every series the objective's rules write. */
export type SloKind = (typeof SLO_KINDS)[number];

/** One objective, as written in an SLO file or by the rule pack. */
export interface SloSpec {
  readonly slo: SloKind;
  /** The share of good events the objective promises, in (0, 1): 0.99 allows 1 % slow or failed requests. */
  readonly objective: number;
  /** Latency objectives: a request is good when its latency is at most this. Must be a bucket bound (see `leMatcher`). */
  readonly thresholdSeconds?: number;
  /** Restricts the objective to one endpoint (exact match); undefined: every endpoint, one SLI per endpoint and component. */
  readonly endpoint?: string;
  /** Restricts the objective to one component (exact match); undefined: every component. */
  readonly component?: string;
  /** The catalog histogram a latency SLI reads; undefined: `DEFAULT_HISTOGRAMS[slo]`. */
  readonly histogram?: string;
  /** The SLO period (error budget window); undefined: `DEFAULT_PERIOD_MS` (30 days). */
  readonly periodMs?: DurationMs;
}

/** The default SLO period: 30 days, as the Google SRE workbook's examples. */
export const DEFAULT_PERIOD_MS = 30 * 24 * 3_600_000;

/**
 * The histogram each latency SLI reads unless the objective names another. TTFT and E2E are read
 * at the front door (`llm_client_*`: the gateway or a platform's front door), which is what the
 * user waits for and has one bucket layout per front door whatever engines sit behind it. Inter-token
 * latency is read from the engines, because the demo fleet's front door (like SageMaker's) does not
 * see individual tokens; a fleet behind the Infersight gateway can name
 * `llm_client_inter_token_latency_seconds` instead.
 */
export const DEFAULT_HISTOGRAMS: Readonly<Record<Exclude<SloKind, 'availability'>, string>> = {
  ttft: 'llm_client_time_to_first_token_seconds',
  itl: 'llm_inter_token_latency_seconds',
  e2e: 'llm_client_request_duration_seconds',
};

/** The counter an availability SLI reads: the front door's requests by status class (bad: `5xx`). */
export const AVAILABILITY_COUNTER = 'llm_client_requests_total';

/** The histogram an objective reads (its own or the default of its kind); undefined for availability. */
export function sloHistogram(s: SloSpec): string | undefined {
  return s.slo === 'availability' ? undefined : (s.histogram ?? DEFAULT_HISTOGRAMS[s.slo]);
}

/**
 * The label that names the bucket layout source of a histogram's series (docs/design/histogram-layouts.md):
 * `job` for the front door's `llm_client_*` (one exporter, one layout), `engine` for the engines'
 * histograms. It is the first of `layoutLabels(name)` in src/dashboards (which src/rules may not
 * import); test/rules/slo-layout.test.ts checks that the two agree for every catalog histogram.
 */
export function layoutSourceLabel(histogram: string): 'job' | 'engine' {
  return histogram.startsWith('llm_client_') ? 'job' : 'engine';
}

/**
 * Whether a catalog histogram can be a latency SLI: in seconds, and measured per request by an
 * engine or by the front door (platform and quality histograms are not request latencies).
 */
export function isSliHistogram(name: string): boolean {
  const m = catalogMetric(name);
  return m !== undefined && m.type === 'histogram' && m.unit === 'seconds' && (m.producer === undefined || m.producer === 'gateway');
}

/** Whether two objectives can produce series for the same endpoint and component. */
function overlaps(a: SloSpec, b: SloSpec): boolean {
  const same = (x: string | undefined, y: string | undefined) => x === undefined || y === undefined || x === y;
  return same(a.endpoint, b.endpoint) && same(a.component, b.component);
}

/** The labels that tell one objective's series from another's of the same scope. */
export function objectiveKey(s: SloSpec): string {
  return `${s.slo} objective=${s.objective} threshold=${s.thresholdSeconds ?? '-'}`;
}

/**
 * The problems of a list of objectives, one message each (empty: valid): an objective outside (0, 1),
 * a latency objective without a positive threshold or an availability one with a threshold, a
 * histogram that is not a catalog histogram, a period under one day, and two objectives whose series
 * would collide (same kind, objective and threshold over overlapping scopes).
 */
export function sloSpecProblems(specs: readonly SloSpec[]): string[] {
  const out: string[] = [];
  specs.forEach((s, i) => {
    const at = `slos[${i}] (${s.slo})`;
    if (!SLO_KINDS.includes(s.slo)) out.push(`${at}: unknown slo kind ${JSON.stringify(s.slo)} (known: ${SLO_KINDS.join(', ')})`);
    if (!(s.objective > 0 && s.objective < 1)) out.push(`${at}: objective ${s.objective} is not between 0 and 1 (0.99 is 99 %)`);
    if (s.slo === 'availability') {
      if (s.thresholdSeconds !== undefined) out.push(`${at}: an availability objective takes no threshold`);
      if (s.histogram !== undefined) out.push(`${at}: an availability objective takes no histogram (it reads ${AVAILABILITY_COUNTER})`);
    } else {
      if (s.thresholdSeconds === undefined || !(s.thresholdSeconds > 0) || !Number.isFinite(s.thresholdSeconds)) out.push(`${at}: a latency objective needs a positive threshold`);
      const h = sloHistogram(s) ?? '';
      if (!isSliHistogram(h)) out.push(`${at}: ${JSON.stringify(h)} is not a latency histogram of the catalog (engine or front door, in seconds)`);
    }
    if (s.periodMs !== undefined && !(s.periodMs >= 24 * 3_600_000)) out.push(`${at}: the period must be at least 1d (the slow burn-rate alert reads 3d)`);
    for (let j = 0; j < i; j++) {
      const o = specs[j];
      if (objectiveKey(o) === objectiveKey(s) && overlaps(o, s)) out.push(`${at}: same kind, objective and threshold as slos[${j}] over an overlapping scope: their series would collide`);
    }
  });
  return out;
}
