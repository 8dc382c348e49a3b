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
 * - `component`: one series per deployment (replica counts, scaling, quality): no instance, AZ or
 *   engine (a panel that must follow an instance selection joins them to the components in it);
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
  if (family.startsWith('gpu_')) return 'host';
  if (family.startsWith('llm_client_')) return 'client';
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

/** `sum by (labels) (x)`, or `sum(x)` without labels. */
export function sumBy(labels: readonly string[], x: string): string {
  return labels.length === 0 ? `sum(${x})` : `sum by (${labels.join(', ')}) (${x})`;
}

/**
 * A quantile of a catalog histogram: `histogram_quantile(q, sum by (le, ...) (rate(h_bucket{...}[$__rate_interval])))`.
 * `q` is a number or `$quantile`; `window` replaces the rate window with an `increase` over it.
 */
export function quantile(q: string, histogram: string, by: readonly string[] = [], extra = '', window?: string): string {
  const buckets = window === undefined ? rate(`${histogram}_bucket`, extra) : increase(`${histogram}_bucket`, window, extra);
  return `histogram_quantile(${q}, ${sumBy(['le', ...by], buckets)})`;
}

/** The mean of a histogram per group: `sum(rate(h_sum)) / sum(rate(h_count))`. */
export function mean(histogram: string, by: readonly string[] = [], extra = ''): string {
  return `${sumBy(by, rate(`${histogram}_sum`, extra))} / ${sumBy(by, rate(`${histogram}_count`, extra))}`;
}
