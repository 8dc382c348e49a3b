/**
 * What the cost evaluator reads, as a fixed set of fleet-wide PromQL queries over catalog names:
 * each is one aggregation over the whole fleet (never one query per replica or instance), asked as
 * an instant query at a live tick or as a range query over an hour of ticks in a replay. Both
 * answers become the same `Readings` per tick, so live ticks and a replay compute the same way.
 */
import type { DurationMs, UnixMs } from '../model/index.js';
import { formatPromDuration } from '../config/index.js';
import { parseSampleValue, type QueryClient } from '../query/index.js';

/** One value of one series at one tick. */
export interface Reading {
  readonly metric: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Windows the queries use. */
export interface QueryWindows {
  /** Rates and activity averages (default 5 m). */
  readonly rateMs: DurationMs;
  /** The idle window: a held GPU is underused when its utilization stayed below the threshold over it. */
  readonly idleMs: DurationMs;
  /**
   * How recent a replica's last scrape must be for it to count: a bit over the scrape interval. A
   * dropped target's stale marker comes up to a scrape interval after the replica stopped; without
   * this, every scale-in would bill a stopped replica for up to a tick more (2 % of a day's cost on
   * the demo fleet at 60 s scrapes).
   */
  readonly freshMs: DurationMs;
}

const REPLICA_ID = 'endpoint, component, model, replica, instance, instance_type';

/** The queries, by name. `r` is the rate window, `w` the idle window (Prometheus durations). */
export function costQueries(w: QueryWindows): Readonly<Record<QueryName, string>> {
  const r = formatPromDuration(w.rateMs);
  const i = formatPromDuration(w.idleMs);
  return {
    // Every engine target, ready or starting (`up` 0 while loading: the GPUs are held then too).
    replicas: `max by (${REPLICA_ID}, gpu) (up{replica!=""}) and on (replica) max by (replica) (count_over_time(up{replica!=""}[${formatPromDuration(w.freshMs)}]))`,
    // Every GPU of every live instance (the DCGM exporter lists the GPUs no replica holds too).
    gpus: `max by (endpoint, instance, instance_type, gpu) (gpu_utilization_ratio)`,
    gpuMaxUtil: `max by (instance, gpu) (max_over_time(gpu_utilization_ratio[${i}]))`,
    // A replica that was up through the whole idle window (a starting one is not "underused").
    replicaSteady: `min by (replica) (min_over_time(up{replica!=""}[${i}]))`,
    sm: `max by (instance, gpu) (avg_over_time(gpu_sm_active_ratio[${r}]))`,
    tensor: `max by (instance, gpu) (avg_over_time(gpu_tensor_pipe_active_ratio[${r}]))`,
    dram: `max by (instance, gpu) (avg_over_time(gpu_dram_active_ratio[${r}]))`,
    memCopy: `max by (instance, gpu) (avg_over_time(gpu_memory_copy_utilization_ratio[${r}]))`,
    inputTps: `sum by (endpoint, component, model) (rate(llm_prompt_tokens_total{replica!=""}[${r}]))`,
    outputTps: `sum by (endpoint, component, model) (rate(llm_generation_tokens_total{replica!=""}[${r}]))`,
    replicaOutputTps: `sum by (replica, engine) (rate(llm_generation_tokens_total{replica!=""}[${r}]))`,
    replicaRunning: `max by (replica, engine) (avg_over_time(llm_requests_running{replica!=""}[${r}]))`,
    replicaFlops: `sum by (replica) (rate(llm_estimated_flops_total{replica!=""}[${r}]))`,
    replicaBytes: `sum by (replica) (rate(llm_estimated_read_bytes_total{replica!=""}[${r}])) + sum by (replica) (rate(llm_estimated_write_bytes_total{replica!=""}[${r}]))`,
  };
}

/** The names of the queries. */
export const QUERY_NAMES = [
  'replicas',
  'gpus',
  'gpuMaxUtil',
  'replicaSteady',
  'sm',
  'tensor',
  'dram',
  'memCopy',
  'inputTps',
  'outputTps',
  'replicaOutputTps',
  'replicaRunning',
  'replicaFlops',
  'replicaBytes',
] as const;

/** One query's name. */
export type QueryName = (typeof QUERY_NAMES)[number];

/** Every query's answer at one tick. */
export type Readings = Readonly<Record<QueryName, readonly Reading[]>>;

/** Reads every query at one instant (in parallel). */
export async function readInstant(client: QueryClient, queries: Readonly<Record<QueryName, string>>, tMs: UnixMs, signal?: AbortSignal): Promise<Readings> {
  const answers = await Promise.all(
    QUERY_NAMES.map(async (name) => {
      const res = await client.instant(queries[name], tMs, { signal });
      const d = res.data;
      const rows: Reading[] = d.resultType === 'vector' ? d.result.map((s) => ({ metric: s.metric, value: parseSampleValue(s.value[1]) })).filter((x) => Number.isFinite(x.value)) : [];
      return [name, rows] as const;
    }),
  );
  return Object.fromEntries(answers) as Record<QueryName, Reading[]>;
}

/**
 * Reads every query over the ticks `fromMs, fromMs + stepMs, … ≤ toMs` with one range query each
 * and returns the readings of each tick, in tick order.
 */
export async function readRange(client: QueryClient, queries: Readonly<Record<QueryName, string>>, fromMs: UnixMs, toMs: UnixMs, stepMs: DurationMs, signal?: AbortSignal): Promise<Map<UnixMs, Readings>> {
  const ticks = new Map<UnixMs, Record<QueryName, Reading[]>>();
  for (let t = fromMs; t <= toMs; t += stepMs) ticks.set(t, Object.fromEntries(QUERY_NAMES.map((n) => [n, []])) as unknown as Record<QueryName, Reading[]>);
  const answers = await Promise.all(QUERY_NAMES.map(async (name) => [name, (await client.range(queries[name], fromMs, toMs, stepMs, { signal })).data.result] as const));
  for (const [name, series] of answers) {
    for (const s of series) {
      for (const [sec, v] of s.values) {
        const value = parseSampleValue(v);
        if (!Number.isFinite(value)) continue;
        ticks.get(Math.round(sec * 1000))?.[name].push({ metric: s.metric, value });
      }
    }
  }
  return ticks;
}
