// The table of the promtool differential test (rules-promtool.test.ts): rule groups as they would
// be written in a rule file (JSON is YAML), input series in promtool's expanding notation, and
// which expressions and alerts are compared at which times. Templates are left out on purpose:
// this test pins evaluation; the template functions have their own tests. Range and lookback
// windows stay off sample times, where 2.42's closed windows and our engine's 3.x left-open ones
// differ (docs/promql-compat.md): ranges are not multiples of the 1 m input interval, and a series
// that stops ends with `stale` rather than falling out of the 5 m lookback on an eval instant.
import type { InputSeries } from '../rules/harness.js';

/** A rule as written in a rule file. */
export interface RuleJson {
  readonly record?: string;
  readonly alert?: string;
  readonly expr: string;
  readonly for?: string;
  readonly keep_firing_for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** A group as written in a rule file. */
export interface GroupJson {
  readonly name: string;
  readonly limit?: number;
  readonly rules: readonly RuleJson[];
}

/** One case: its rule file, its input, and what is compared (every minute of `minutes`). */
export interface DiffCase {
  readonly name: string;
  readonly groups: readonly GroupJson[];
  readonly series: readonly InputSeries[];
  /** Eval times in minutes (1 m evaluation interval and input interval). */
  readonly minutes: readonly number[];
  /** Expressions whose values at each eval time become `exp_samples`. */
  readonly exprs: readonly string[];
  /** Alert names whose firing alerts at each eval time become `exp_alerts`. */
  readonly alerts?: readonly string[];
  /**
   * promtool's `group_eval_order`: without it promtool runs groups in Go's map order (random),
   * so a case whose groups depend on each other names the order (ours: file order).
   */
  readonly groupEvalOrder?: readonly string[];
}

const ALERT_EXPRS = ['ALERTS', 'ALERTS_FOR_STATE'];
const upTo = (n: number): number[] => Array.from({ length: n + 1 }, (_, i) => i);

/** The cases: recording (aggregation, labels, scalars, chains, staleness), alerting (for, keep_firing_for, resolve, flapping), limits and errors. */
export const DIFF_CASES: readonly DiffCase[] = [
  {
    name: 'recording: sum by job of rate',
    groups: [{ name: 'g', rules: [{ record: 'job:req:rate2m', expr: 'sum by (job) (rate(req_total[150s]))' }] }],
    series: [
      { series: 'req_total{job="api",instance="a"}', values: '0+60x15' },
      { series: 'req_total{job="api",instance="b"}', values: '0+30x15' },
      { series: 'req_total{job="web",instance="c"}', values: '0+6x15' },
    ],
    minutes: [2, 5, 10, 15],
    exprs: ['job:req:rate2m'],
  },
  {
    name: 'recording: rule labels override result labels',
    groups: [{ name: 'g', rules: [{ record: 'x:relabeled', expr: 'x', labels: { env: 'prod', instance: 'overridden' } }] }],
    series: [{ series: 'x{instance="a",env="dev"}', values: '1 2 3 4 5' }],
    minutes: [0, 2, 4],
    exprs: ['x:relabeled'],
  },
  {
    name: 'recording: a scalar result',
    groups: [{ name: 'g', rules: [{ record: 'fleet:count', expr: 'scalar(count(up))', labels: { scope: 'fleet' } }] }],
    series: [
      { series: 'up{instance="a"}', values: '1x10' },
      { series: 'up{instance="b"}', values: '1x4' },
    ],
    minutes: [0, 3, 6, 10],
    exprs: ['fleet:count'],
  },
  {
    name: 'recording: a chain inside one group sees the same instant',
    groups: [
      {
        name: 'g',
        rules: [
          { record: 'step1', expr: 'sum(x)' },
          { record: 'step2', expr: 'step1 * 2' },
          { record: 'step3', expr: 'step2 + step1' },
        ],
      },
    ],
    series: [{ series: 'x{i="a"}', values: '1+1x10' }],
    minutes: [0, 1, 5, 10],
    exprs: ['step1', 'step2', 'step3'],
  },
  {
    name: 'recording: a chain across groups, in file order',
    groups: [
      { name: 'first', rules: [{ record: 'a:sum', expr: 'sum(x)' }] },
      { name: 'second', rules: [{ record: 'b:double', expr: 'a:sum * 2' }] },
    ],
    series: [{ series: 'x', values: '0+5x10' }],
    minutes: [0, 3, 7],
    exprs: ['a:sum', 'b:double'],
    groupEvalOrder: ['first', 'second'],
  },
  {
    name: 'recording: series that go away are marked stale',
    groups: [{ name: 'g', rules: [{ record: 'inst:x', expr: 'x > 0' }] }],
    series: [
      { series: 'x{instance="a"}', values: '1 1 1 0 0 0 0 0 1 1' },
      { series: 'x{instance="b"}', values: '1 1 1 1 1 1 1 1 1 1' },
    ],
    minutes: upTo(9),
    exprs: ['inst:x', 'count_over_time(inst:x[10m])'],
  },
  {
    name: 'recording: histogram quantile per le',
    groups: [{ name: 'g', rules: [{ record: 'job:latency:p90', expr: 'histogram_quantile(0.9, sum by (job, le) (rate(lat_bucket[270s])))' }] }],
    series: [
      { series: 'lat_bucket{job="api",le="0.1"}', values: '0+10x10' },
      { series: 'lat_bucket{job="api",le="0.5"}', values: '0+18x10' },
      { series: 'lat_bucket{job="api",le="+Inf"}', values: '0+20x10' },
    ],
    minutes: [5, 10],
    exprs: ['job:latency:p90'],
  },
  {
    name: 'recording: count by label of a comparison',
    groups: [{ name: 'g', rules: [{ record: 'az:engines_busy:count', expr: 'count by (az) (kv_usage > 0.5)' }] }],
    series: [
      { series: 'kv_usage{az="a",instance="1"}', values: '0.1 0.6 0.7 0.4' },
      { series: 'kv_usage{az="a",instance="2"}', values: '0.6 0.6 0.6 0.6' },
      { series: 'kv_usage{az="b",instance="3"}', values: '0.9 0.2 0.9 0.2' },
    ],
    minutes: [0, 1, 2, 3],
    exprs: ['az:engines_busy:count'],
  },
  {
    name: 'recording: limit not exceeded at the limit',
    groups: [{ name: 'g', limit: 2, rules: [{ record: 'r', expr: 'x' }] }],
    series: [
      { series: 'x{i="a"}', values: '1x5' },
      { series: 'x{i="b"}', values: '1x5' },
    ],
    minutes: [0, 5],
    exprs: ['r'],
  },
  {
    name: 'recording: limit exceeded',
    groups: [{ name: 'g', limit: 1, rules: [{ record: 'r', expr: 'x' }] }],
    series: [
      { series: 'x{i="a"}', values: '1x5' },
      { series: 'x{i="b"}', values: '_ _ 1x3' },
    ],
    minutes: [0, 1, 5],
    exprs: ['r'],
  },
  {
    name: 'recording: same labelset after applying rule labels',
    groups: [{ name: 'g', rules: [{ record: 'r', expr: '{__name__=~"x|y"}' }] }],
    series: [
      { series: 'x{i="a"}', values: '1x5' },
      { series: 'y{i="a"}', values: '_ _ 2x3' },
    ],
    minutes: [0, 5],
    exprs: ['r'],
  },
  {
    name: 'alerting: for 0 fires at once',
    groups: [{ name: 'g', rules: [{ alert: 'High', expr: 'x > 5', labels: { severity: 'page' }, annotations: { summary: 'x is high' } }] }],
    series: [{ series: 'x{instance="a"}', values: '1 6 7 8 2 2' }],
    minutes: upTo(5),
    exprs: ALERT_EXPRS,
    alerts: ['High'],
  },
  {
    name: 'alerting: pending then firing after for',
    groups: [{ name: 'g', rules: [{ alert: 'Slow', expr: 'latency > 1', for: '3m' }] }],
    series: [{ series: 'latency{instance="a"}', values: '2x10' }],
    minutes: upTo(6),
    exprs: ALERT_EXPRS,
    alerts: ['Slow'],
  },
  {
    name: 'alerting: resolves, is kept, fires anew with a new activeAt',
    groups: [{ name: 'g', rules: [{ alert: 'Err', expr: 'errors > 0', for: '1m' }] }],
    series: [{ series: 'errors{job="api"}', values: '1 1 1 0 0 1 1 1' }],
    minutes: upTo(7),
    exprs: ALERT_EXPRS,
    alerts: ['Err'],
  },
  {
    name: 'alerting: flapping never reaches for',
    groups: [{ name: 'g', rules: [{ alert: 'Flap', expr: 'x > 0', for: '2m' }] }],
    series: [{ series: 'x', values: '1 1 0 1 1 0 1 1 1 1' }],
    minutes: upTo(9),
    exprs: ALERT_EXPRS,
    alerts: ['Flap'],
  },
  {
    name: 'alerting: keep_firing_for holds a firing alert',
    groups: [{ name: 'g', rules: [{ alert: 'Keep', expr: 'x > 0', keep_firing_for: '3m' }] }],
    series: [{ series: 'x{instance="a"}', values: '1 1 0 0 0 0 0 0' }],
    minutes: upTo(7),
    exprs: ALERT_EXPRS,
    alerts: ['Keep'],
  },
  {
    name: 'alerting: keep_firing_for with for, the result coming back',
    groups: [{ name: 'g', rules: [{ alert: 'KeepFor', expr: 'x > 0', for: '1m', keep_firing_for: '2m' }] }],
    series: [{ series: 'x', values: '1 1 1 0 1 0 0 0 0' }],
    minutes: upTo(8),
    exprs: ALERT_EXPRS,
    alerts: ['KeepFor'],
  },
  {
    name: 'alerting: one alert per series, each with its own state',
    groups: [{ name: 'g', rules: [{ alert: 'PerInstance', expr: 'gpu_mem_ratio > 0.95', for: '2m', labels: { team: 'infra' } }] }],
    series: [
      { series: 'gpu_mem_ratio{instance="a",gpu="0"}', values: '0.99x8' },
      { series: 'gpu_mem_ratio{instance="b",gpu="0"}', values: '0.5 0.5 0.99x6' },
      { series: 'gpu_mem_ratio{instance="c",gpu="1"}', values: '0.99 0.99 0.99 0.1x5' },
    ],
    minutes: upTo(8),
    exprs: ALERT_EXPRS,
    alerts: ['PerInstance'],
  },
  {
    name: 'alerting: on a recording rule of the same group',
    groups: [
      {
        name: 'g',
        rules: [
          { record: 'job:err:ratio', expr: 'sum by (job) (rate(err_total[150s])) / sum by (job) (rate(req_total[150s]))' },
          { alert: 'ErrorRatio', expr: 'job:err:ratio > 0.1', for: '2m', labels: { severity: 'ticket' } },
        ],
      },
    ],
    series: [
      { series: 'err_total{job="api"}', values: '0+1x4 4+20x6' },
      { series: 'req_total{job="api"}', values: '0+60x10' },
    ],
    minutes: upTo(10),
    exprs: ['job:err:ratio', ...ALERT_EXPRS],
    alerts: ['ErrorRatio'],
  },
  {
    name: 'alerting: absent() when a series is missing',
    groups: [{ name: 'g', rules: [{ alert: 'Missing', expr: 'absent(heartbeat{job="sim"})', for: '1m' }] }],
    series: [{ series: 'heartbeat{job="sim"}', values: '1 1 1 stale' }],
    minutes: upTo(10),
    exprs: ALERT_EXPRS,
    alerts: ['Missing'],
  },
  {
    name: 'alerting: limit exceeded',
    groups: [{ name: 'g', limit: 1, rules: [{ alert: 'Many', expr: 'x > 0' }] }],
    series: [
      { series: 'x{i="a"}', values: '1x5' },
      { series: 'x{i="b"}', values: '0 0 0 1 1 1' },
    ],
    minutes: [0, 1, 2, 5],
    exprs: ALERT_EXPRS,
    alerts: ['Many'],
  },
  {
    name: 'alerting: duplicate alert after dropping the metric name',
    groups: [{ name: 'g', rules: [{ alert: 'Dup', expr: '{__name__=~"x|y"} > 0' }] }],
    series: [
      { series: 'x{i="a"}', values: '1x5' },
      { series: 'y{i="a"}', values: '0 0 1x3' },
    ],
    minutes: [0, 1, 5],
    exprs: ALERT_EXPRS,
  },
  {
    name: 'alerting: rule labels override the result and the pending alert stays pending over a gap of samples',
    groups: [{ name: 'g', rules: [{ alert: 'Gap', expr: 'x > 0', for: '4m', labels: { instance: 'fixed' } }] }],
    series: [{ series: 'x{instance="a"}', values: '1 1 _ _ 1 1 1' }],
    minutes: upTo(6),
    exprs: ALERT_EXPRS,
    alerts: ['Gap'],
  },
];
