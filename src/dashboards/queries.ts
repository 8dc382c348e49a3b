/**
 * PromQL builders for panel definitions. Every selector carries the dashboard's filters for the
 * identity labels its metric has (`scopeOf`), so choosing an endpoint, a component, an AZ, an
 * engine or clicking a hex cell (the `instance` variable) narrows every panel, and the query text
 * shows it. Rate windows are `$__rate_interval`.
 */
import { catalogMetric } from '../semconv/index.js';

/**
 * Which identity labels a metric's series carry, so which filters its selectors take:
 *
 * - `engine`: series of an engine process (one replica on one instance), `engine` set by the
 *   normalizer; also the platform's series about one replica's start (cold start, container
 *   start, start phases), which carry the replica's identity `engine` included;
 * - `client`: the front door's series (`llm_client_*`): what it routed to a replica carries that
 *   replica's identity (the gateway and the demo's front door alike), refusals before routing only
 *   the component's labels (so an instance filter leaves them out, as it should; a `=~".*"` filter
 *   also matches a missing label);
 * - `target`: Prometheus' own per-target series (`up`): the target labels, no `engine`;
 * - `host`: a per-instance exporter (DCGM's `gpu_*`): no component or engine;
 * - `component`: one series per deployment (replica counts, scaling, quality, the SLO rules'
 *   `slo:*` series): no instance, AZ or engine (a panel that must follow an instance selection joins them to the components in it);
 * - `reference`: reference data keyed by model and instance type (benchmarks): no filter, a query
 *   joins it to the selection on its keys.
 */
export type Scope = 'engine' | 'client' | 'target' | 'host' | 'component' | 'reference';

/** The variables (named as their labels) each scope is filtered by, in the order they are written. */
export const SCOPE_FILTERS: Readonly<Record<Scope, readonly string[]>> = {
  engine: ['endpoint', 'component', 'az', 'instance', 'engine'],
  client: ['endpoint', 'component', 'az', 'instance', 'engine'],
  target: ['endpoint', 'component', 'az', 'instance'],
  host: ['endpoint', 'az', 'instance'],
  component: ['endpoint', 'component'],
  reference: [],
};

/**
 * Fleet-producer metrics that are per instance or per replica, not per component: they carry the
 * identity of the replica or instance they are about, so they take the engine filters.
 */
const PER_INSTANCE_FLEET = new Set([
  'llm_instance_ready',
  'llm_instance_info',
  'llm_cold_start_duration_seconds',
  'llm_container_start_duration_seconds',
  'llm_cold_start_phase_duration_seconds',
]);

/** The catalog name of a series name: `_bucket`, `_sum` and `_count` of a histogram removed. */
export function familyName(name: string): string {
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  return m !== null && catalogMetric(m[1])?.type === 'histogram' ? m[1] : name;
}

/** The scope of a metric (or of one series of a histogram family). */
export function scopeOf(name: string): Scope {
  const family = familyName(name);
  if (family === 'up') return 'target';
  // Series the SLO recording rules write (docs/design/slo-series.md): per SLO, endpoint and component.
  if (family.startsWith('slo:')) return 'component';
  if (family.startsWith('gpu_')) return 'host';
  if (family.startsWith('llm_client_')) return 'client';
  // The benchmark itself is reference data (per model and instance type); the efficiency against it is per replica.
  if (family === 'llm_benchmark_efficiency_ratio') return 'component';
  if (family.startsWith('llm_benchmark_')) return 'reference';
  const producer = catalogMetric(family)?.producer;
  if ((producer === 'fleet' || producer === 'cost' || producer === 'quality') && !PER_INSTANCE_FLEET.has(family)) return 'component';
  return 'engine';
}

/**
 * A selector of `name` with the filters of its scope after the `extra` matchers:
 * `sel('llm_requests_running')` is
 * `llm_requests_running{endpoint=~"$endpoint", component=~"$component", az=~"$az", instance=~"$instance", engine=~"$engine"}`.
 */
export function sel(name: string, extra = ''): string {
  const matchers = [...(extra === '' ? [] : [extra]), ...SCOPE_FILTERS[scopeOf(name)].map((l) => `${l}=~"$${l}"`)];
  return matchers.length === 0 ? name : `${name}{${matchers.join(', ')}}`;
}

/** `rate(<sel>[$__rate_interval])`. */
export function rate(name: string, extra = ''): string {
  return `rate(${sel(name, extra)}[$__rate_interval])`;
}

/** `increase(<sel>[window])`, for counts over the dashboard's range (`$__range`). */
export function increase(name: string, window: string, extra = ''): string {
  return `increase(${sel(name, extra)}[${window}])`;
}

/** `op by (labels) (x)`, or `op(x)` without labels. */
function aggregate(op: string, labels: readonly string[], x: string): string {
  return labels.length === 0 ? `${op}(${x})` : `${op} by (${labels.join(', ')}) (${x})`;
}

/** `sum by (labels) (x)`, or `sum(x)` without labels. */
export function sumBy(labels: readonly string[], x: string): string {
  return aggregate('sum', labels, x);
}

/**
 * The labels that tell one bucket layout from another, per scope (docs/design/histogram-layouts.md).
 * Engines bucket the same catalog histogram differently (vLLM's TTFT bounds are not SGLang's), and
 * buckets of different layouts summed into one `le` series make a distribution that no request had:
 * a quantile must be taken per layout source. The first label of each list is the one the builders
 * group by; any label of the list names one source:
 *
 * - engine series: `engine` (the normalizer sets it from the metric's name, so it is always there),
 *   or `replica` (one process, one layout);
 * - everything else (the front door's `llm_client_*`, the platform's and the quality exporter's
 *   histograms): `job`, which every scraped series carries and the gateway writes itself
 *   (`job="gateway"`, the demo's per-component front door `job="sim-frontdoor"`): one exporter, one
 *   layout. The `engine` on a gateway series names its upstream, not the gateway's buckets.
 */
export const LAYOUT_LABELS: Readonly<Record<Scope, readonly string[]>> = {
  engine: ['engine', 'replica'],
  client: ['job'],
  target: ['job'],
  host: ['job'],
  component: ['job'],
  reference: ['job'],
};

/** The labels any one of which names the bucket layout source of `name` (a histogram family or one of its series). */
export function layoutLabels(name: string): readonly string[] {
  return LAYOUT_LABELS[scopeOf(name)];
}

/** The bucket series of a histogram: their rate, or their `increase` over `window`. */
function buckets(histogram: string, extra: string, window: string | undefined): string {
  return window === undefined ? rate(`${histogram}_bucket`, extra) : increase(`${histogram}_bucket`, window, extra);
}

/**
 * A quantile of a catalog histogram per group of `by`, never mixing bucket layouts: the buckets
 * are summed per `le`, `by` and layout source (`LAYOUT_LABELS`), the quantile is taken per source,
 * and when `by` does not name a source itself the group's figure is the largest of its sources':
 *
 * `max by (component) (histogram_quantile(q, sum by (le, component, engine) (rate(h_bucket{...}[$__rate_interval]))))`.
 *
 * That maximum is an upper bound of the quantile of all the group's requests (a quantile of a
 * mixture never exceeds its largest part's), and panels say so. `q` is a number or `$quantile`;
 * `window` replaces the rate window with an `increase` over it.
 */
export function quantile(q: string, histogram: string, by: readonly string[] = [], extra = '', window?: string): string {
  const sources = layoutLabels(histogram);
  const perSource = by.some((l) => sources.includes(l));
  const hq = `histogram_quantile(${q}, ${sumBy(['le', ...by, ...(perSource ? [] : [sources[0]])], buckets(histogram, extra, window))})`;
  return perSource ? hq : aggregate('max', by, hq);
}

/**
 * The bucket rates of a histogram for a heatmap, one set of `le` series per layout source (and
 * per group of `by`): `sum by (le, engine) (rate(h_bucket{...}[$__rate_interval]))`. A heatmap
 * differences the cumulative buckets of each source on its own, so layouts are never subtracted
 * from one another.
 */
export function heatmapBuckets(histogram: string, by: readonly string[] = [], extra = ''): string {
  const sources = layoutLabels(histogram);
  return sumBy(['le', ...by, ...(by.some((l) => sources.includes(l)) ? [] : [sources[0]])], buckets(histogram, extra, undefined));
}

/** The mean of a histogram per group: `sum(rate(h_sum)) / sum(rate(h_count))`. */
export function mean(histogram: string, by: readonly string[] = [], extra = ''): string {
  return `${sumBy(by, rate(`${histogram}_sum`, extra))} / ${sumBy(by, rate(`${histogram}_count`, extra))}`;
}
