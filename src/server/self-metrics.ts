import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Labels } from '../model/index.js';
import type { MetricFamily } from '../wire/index.js';
import type { ResultCacheStats } from '../promql/index.js';
import type { NotifierStats, RulesSnapshot } from '../rules/index.js';
import type { DbStats } from '../tsdb/index.js';

const gauge = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'gauge', samples: [{ value }] });
const counter = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'counter', samples: [{ value }] });

/** Renders the TSDB's self-monitoring numbers as metric families (names follow prometheus_tsdb_*). */
export function tsdbMetricFamilies(s: DbStats): MetricFamily[] {
  const h = s.head;
  return [
    gauge('infersight_tsdb_head_series', 'Series in the head.', h.series),
    counter('infersight_tsdb_head_series_created_total', 'Series created in the head.', h.seriesCreated),
    counter('infersight_tsdb_head_series_refused_total', 'New series refused by the head series limit (--storage.tsdb.max-series).', h.seriesRefused),
    counter('infersight_tsdb_head_series_removed_total', 'Series removed from the head by garbage collection.', h.seriesRemoved),
    counter('infersight_tsdb_head_samples_appended_total', 'Samples committed to the head.', h.samplesAppended),
    counter('infersight_tsdb_head_chunks_created_total', 'Head chunks created.', h.chunksCreated),
    gauge('infersight_tsdb_head_min_time_ms', 'Oldest sample timestamp in the head (ms), +Inf when empty.', h.minTimeMs),
    gauge('infersight_tsdb_head_max_time_ms', 'Newest sample timestamp in the head (ms), -Inf when empty.', h.maxTimeMs),
    {
      name: 'infersight_tsdb_rejected_samples_total',
      help: 'Samples rejected at append or dropped at commit, by reason.',
      type: 'counter',
      samples: [
        { labels: reason('out_of_order'), value: h.outOfOrderRejected },
        { labels: reason('duplicate'), value: h.duplicateRejected },
        { labels: reason('out_of_bounds'), value: h.outOfBoundsRejected },
        { labels: reason('too_old'), value: h.tooOldRejected },
        { labels: reason('invalid_at_commit'), value: h.droppedAtCommit },
      ],
    },
    counter('infersight_tsdb_head_out_of_order_samples_appended_total', 'Samples the out-of-order window accepted.', h.oooAppended),
    counter('infersight_tsdb_checkpoints_total', 'WAL checkpoints written from the head.', s.checkpoints.count),
    counter('infersight_tsdb_checkpoint_duration_seconds_total', 'Time spent writing WAL checkpoints.', s.checkpoints.secondsTotal),
    counter('infersight_tsdb_wal_records_total', 'Records written to the WAL.', s.wal.recordsWritten),
    counter('infersight_tsdb_wal_bytes_written_total', 'Bytes written to the WAL.', s.wal.bytesWritten),
    counter('infersight_tsdb_wal_segments_created_total', 'WAL segments created.', s.wal.segmentsCreated),
    counter('infersight_tsdb_wal_truncations_total', 'WAL truncations after checkpoints.', s.wal.truncations),
    counter('infersight_tsdb_wal_corruptions_total', 'Corrupt WAL tails repaired at open.', s.wal.corruptionsRepaired),
    counter('infersight_tsdb_wal_write_failures_total', 'WAL writes and segment creations that failed (full disk, I/O error); none was acknowledged.', s.wal.writeFailures),
    counter('infersight_tsdb_wal_fsync_failures_total', 'WAL fsyncs that failed; writes are refused until a checkpoint from memory replaces the segment.', s.wal.fsyncFailures),
    counter('infersight_tsdb_wal_slow_fsyncs_total', 'WAL fsyncs that took 1 s or more.', s.wal.slowFsyncs),
    {
      name: 'infersight_tsdb_wal_fsync_duration_seconds',
      help: 'Duration of WAL fsyncs.',
      type: 'summary',
      samples: [
        { suffix: '_sum', value: s.wal.fsyncSecondsTotal },
        { suffix: '_count', value: s.wal.fsyncs },
      ],
    },
    gauge('infersight_tsdb_blocks_loaded', 'Blocks on disk.', s.blocks.count),
    gauge('infersight_tsdb_storage_blocks_bytes', 'Bytes of all blocks on disk.', s.blocks.bytes),
    counter('infersight_tsdb_compactions_total', 'Blocks cut from the head.', s.compaction.runs),
    counter('infersight_tsdb_compactions_failed_total', 'Compactions that failed.', s.compaction.failures),
    {
      name: 'infersight_tsdb_compaction_duration_seconds',
      help: 'Duration of head compactions.',
      type: 'summary',
      samples: [
        { suffix: '_sum', value: s.compaction.secondsTotal },
        { suffix: '_count', value: s.compaction.runs },
      ],
    },
    counter('infersight_tsdb_retention_blocks_deleted_total', 'Blocks deleted by time or size retention.', s.compaction.blocksDeleted),
    gauge('infersight_tsdb_wal_replay_duration_seconds', 'Time the last open spent replaying the WAL.', s.replaySeconds),
  ];
}

/** Renders the range-result cache's sizes and counters (src/promql/result-cache). */
export function resultCacheMetricFamilies(s: ResultCacheStats): MetricFamily[] {
  const result = (r: string, value: number) => ({ labels: Labels.from({ result: r }), value });
  return [
    gauge('infersight_query_result_cache_bytes', 'Bytes (estimated) the range-result cache holds.', s.bytes),
    gauge('infersight_query_result_cache_max_bytes', 'Byte budget of the range-result cache (--query.cache-size).', s.maxBytes),
    gauge('infersight_query_result_cache_entries', 'Entries (one query, step and alignment each) in the range-result cache.', s.entries),
    {
      name: 'infersight_query_result_cache_requests_total',
      help: 'Range queries by what the cache did: hit (all steps cached), partial (only new or changed steps computed), miss (all computed), bypass (nocache, stats=all, @ and other uncacheable queries).',
      type: 'counter',
      samples: [result('hit', s.hits), result('partial', s.partialHits), result('miss', s.misses), result('bypass', s.bypasses)],
    },
    counter('infersight_query_result_cache_invalidations_total', 'Cache lookups that found steps no longer valid after late samples, deletions or retention.', s.invalidations),
    counter('infersight_query_result_cache_evictions_total', 'Entries dropped to stay within the byte budget.', s.evictions),
  ];
}

function reason(r: string): Labels {
  return Labels.from({ reason: r });
}

/** Process metrics every Prometheus-instrumented server exposes. */
export function processMetricFamilies(startTimeMs: number): MetricFamily[] {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  return [
    counter('process_cpu_seconds_total', 'User and system CPU time spent in seconds.', (cpu.user + cpu.system) / 1e6),
    gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', mem.rss),
    gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch in seconds.', Math.floor(startTimeMs / 1000)),
    gauge('nodejs_heap_used_bytes', 'V8 heap in use in bytes.', mem.heapUsed),
    gauge('nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript objects (buffers) in bytes.', mem.external + mem.arrayBuffers),
  ];
}

/** What `EventLoopDelayMetrics` reads of `perf_hooks`' interval histogram (nanoseconds). */
export type EventLoopHistogram = Pick<IntervalHistogram, 'count' | 'mean' | 'max' | 'percentile' | 'reset' | 'enable' | 'disable'>;

/** The quantiles of `infersight_event_loop_delay_seconds`. */
const LOOP_QUANTILES = [0.5, 0.9, 0.99] as const;

/**
 * The event loop's delay (`perf_hooks.monitorEventLoopDelay`, sampled every 10 ms): how long a
 * timer that was due waited for the loop, which is how long any request waited behind the work
 * in front of it. A summary `infersight_event_loop_delay_seconds` whose quantiles cover the time
 * since the previous read (as prom-client's `nodejs_eventloop_lag_*` do: quantiles since the
 * start would stop moving after an hour), with `_sum` and `_count` over the whole life of the
 * process, and a gauge `infersight_event_loop_delay_max_seconds` for the worst delay since the
 * previous read. One reader (the scraper of `/metrics`) is assumed; a second one shortens the
 * first one's windows.
 */
export class EventLoopDelayMetrics {
  private sumSeconds = 0;
  private count = 0;

  /** Starts sampling; tests pass a histogram of their own (the fields read are `count`, `mean`, `max`, `percentile`). */
  constructor(private readonly histogram: EventLoopHistogram = monitorEventLoopDelay({ resolution: 10 })) {
    histogram.enable();
  }

  /** The families for `/metrics`; starts the next window. */
  families(): MetricFamily[] {
    const h = this.histogram;
    // An empty window (read twice within 10 ms) has NaN statistics: report zero delay.
    const n = h.count;
    const s = (ns: number): number => (n === 0 || !Number.isFinite(ns) ? 0 : ns / 1e9);
    this.count += n;
    this.sumSeconds += n === 0 ? 0 : (h.mean * n) / 1e9;
    const quantiles = LOOP_QUANTILES.map((q) => ({ labels: Labels.from({ quantile: String(q) }), value: s(h.percentile(q * 100)) }));
    const max = s(h.max);
    h.reset();
    return [
      {
        name: 'infersight_event_loop_delay_seconds',
        help: 'Event loop delay; quantiles over the time since the previous read of /metrics.',
        type: 'summary',
        samples: [...quantiles, { suffix: '_sum', value: this.sumSeconds }, { suffix: '_count', value: this.count }],
      },
      gauge('infersight_event_loop_delay_max_seconds', 'Largest event loop delay since the previous read of /metrics.', max),
    ];
  }

  /** Stops sampling (the server is closing). */
  stop(): void {
    this.histogram.disable();
  }
}

/**
 * The rule groups' and the notifier's numbers, named after Prometheus' `prometheus_rule_*` and
 * `prometheus_notifications_*` with the `infersight_` prefix: per group (`rule_group` is
 * `file;name`, as Prometheus writes it) and per destination.
 */
export function rulesMetricFamilies(s: RulesSnapshot, n: NotifierStats): MetricFamily[] {
  const perGroup = (name: string, help: string, type: 'counter' | 'gauge', value: (g: RulesSnapshot['groups'][number]) => number): MetricFamily => ({
    name,
    help,
    type,
    samples: s.groups.map((g) => ({ labels: Labels.from({ rule_group: `${g.file};${g.name}` }), value: value(g) })),
  });
  const perDestination = (name: string, help: string, type: 'counter' | 'gauge', value: (d: NotifierStats['destinations'][number]) => number): MetricFamily => ({
    name,
    help,
    type,
    samples: n.destinations.map((d) => ({ labels: Labels.from({ kind: d.kind, destination: d.url }), value: value(d) })),
  });
  return [
    perGroup('infersight_rule_group_iterations_total', 'Scheduled evaluations of the group, missed ones included.', 'counter', (g) => g.metrics.iterationsScheduled),
    perGroup('infersight_rule_group_iterations_missed_total', 'Evaluations skipped because the previous one ran past them.', 'counter', (g) => g.metrics.iterationsMissed),
    perGroup('infersight_rule_group_deadline_exceeded_total', 'Evaluations aborted because the next tick came first.', 'counter', (g) => g.metrics.deadlineExceeded),
    perGroup('infersight_rule_evaluations_total', 'Rule evaluations.', 'counter', (g) => g.metrics.evaluations),
    perGroup('infersight_rule_evaluation_failures_total', 'Rule evaluations that failed.', 'counter', (g) => g.metrics.evaluationFailures),
    perGroup('infersight_rule_group_last_duration_seconds', 'How long the last evaluation of the group took.', 'gauge', (g) => g.evaluationTimeMs / 1000),
    perGroup('infersight_rule_group_last_evaluation_samples', 'Samples the last evaluation of the group wrote.', 'gauge', (g) => g.metrics.lastSamples),
    perGroup('infersight_rule_group_interval_seconds', 'The group\'s evaluation interval.', 'gauge', (g) => g.intervalMs / 1000),
    gauge('infersight_notifications_alertmanagers_discovered', 'Alertmanagers the notifier sends to.', n.alertmanagersDiscovered),
    gauge('infersight_notifications_queue_capacity', 'The most alerts each destination queues.', n.queueCapacity),
    counter('infersight_notifications_relabel_dropped_total', 'Alerts alert_relabel_configs dropped.', n.relabelDropped),
    perDestination('infersight_notifications_sent_total', 'Alerts delivered.', 'counter', (d) => d.sent),
    perDestination('infersight_notifications_errors_total', 'Alerts in requests that failed.', 'counter', (d) => d.errors),
    perDestination('infersight_notifications_dropped_total', 'Alerts given up (queue overflow, refused, stale).', 'counter', (d) => d.dropped),
    perDestination('infersight_notifications_queue_length', 'Alerts waiting to be sent.', 'gauge', (d) => d.queueLength),
  ];
}
