/**
 * Rule evaluation over the embedded store: BENCH_INSTANCES engine instances (3 AZs, 15 min of
 * samples at 15 s: a KV-cache gauge, a request counter, a 6-bucket TTFT histogram) and
 * BENCH_RULES rules in groups of 10 (a third per-instance alerts, a third fleet recordings by AZ,
 * a third per-instance p99 recordings), evaluated at BENCH_TICKS ticks of 15 s with the real
 * engine. Prints the wall time per group evaluation (p50, max), per rule (mean) and the samples
 * written per tick. One JSON line.
 *
 * Env: BENCH_INSTANCES (default 1000), BENCH_RULES (default 100), BENCH_TICKS (default 4).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Labels, MemoryLogger } from '../../src/model/index.js';
import { Engine, EngineQueryClient, exprToString, parseExpr } from '../../src/promql/index.js';
import { runRulesOver, type RuleGroupSpec, type RuleSpec } from '../../src/rules/index.js';
import { Db } from '../../src/tsdb/index.js';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1000);
const RULES = Number(process.env.BENCH_RULES ?? 100);
const TICKS = Number(process.env.BENCH_TICKS ?? 4);
const STEP = 15_000;
const END = 1_700_000_000_000;
const START = END - 15 * 60_000;
const LES = ['0.1', '0.25', '0.5', '1', '2.5', '+Inf'];
const AT = { line: 1, column: 1 };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-rules-'));
try {
  const clock = (): number => END + TICKS * STEP;
  const db = await Db.open({ dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock });
  const app = db.appender();
  for (let i = 0; i < INSTANCES; i++) {
    const base = { instance: `i-${i}`, az: `az-${i % 3}`, component: `c-${i % 20}` };
    const kv = Labels.from({ __name__: 'kv_cache_usage_ratio', ...base });
    const req = Labels.from({ __name__: 'requests_total', ...base });
    const buckets = LES.map((le) => Labels.from({ __name__: 'ttft_seconds_bucket', ...base, le }));
    for (let t = START, k = 0; t <= END + TICKS * STEP; t += STEP, k++) {
      app.append(0, kv, t, ((i * 7 + k) % 100) / 100);
      app.append(0, req, t, k * (1 + (i % 5)));
      buckets.forEach((b, j) => app.append(0, b, t, k * (j + 1)));
    }
  }
  await app.commit();
  const client = new EngineQueryClient({ engine: new Engine({ now: clock }), queryable: db });
  const rules: RuleSpec[] = [];
  for (let r = 0; r < RULES; r++) {
    const kind = r % 3;
    if (kind === 0) rules.push({ kind: 'alerting', alert: `KvHigh${r}`, expr: `kv_cache_usage_ratio > ${0.5 + (r % 40) / 100}`, forMs: 5 * 60_000, keepFiringForMs: 0, labels: {}, annotations: {}, position: AT });
    else if (kind === 1) rules.push({ kind: 'recording', record: `az:requests:rate1m_${r}`, expr: 'sum by (az) (rate(requests_total[1m]))', labels: {}, position: AT });
    else rules.push({ kind: 'recording', record: `instance:ttft:p99_${r}`, expr: 'histogram_quantile(0.99, sum by (instance, le) (rate(ttft_seconds_bucket[1m])))', labels: {}, position: AT });
  }
  const groups: RuleGroupSpec[] = [];
  for (let g = 0; g * 10 < rules.length; g++) {
    groups.push({ name: `g${g}`, file: 'bench.yml', intervalMs: STEP, queryOffsetMs: undefined, limit: 0, rules: rules.slice(g * 10, g * 10 + 10), position: AT });
  }
  const groupMs: number[] = [];
  let mark = performance.now();
  const t0 = performance.now();
  let samples = 0;
  const res = await runRulesOver(groups, END + STEP, END + TICKS * STEP, {
    query: client,
    appendable: db,
    align: 'from',
    formatExpr: (e) => exprToString(parseExpr(e)),
    afterEval: (g) => {
      const now = performance.now();
      groupMs.push(now - mark);
      samples += g.metrics.lastSamples;
      mark = performance.now();
    },
  });
  const totalMs = performance.now() - t0;
  groupMs.sort((a, b) => a - b);
  const failures = res.snapshot.groups.reduce((n, g) => n + g.metrics.evaluationFailures, 0);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'rules-eval',
      instances: INSTANCES,
      rules: RULES,
      groups: groups.length,
      ticks: TICKS,
      groupEvalP50Ms: Number(groupMs[Math.floor(groupMs.length / 2)].toFixed(1)),
      groupEvalMaxMs: Number(groupMs[groupMs.length - 1].toFixed(1)),
      ruleEvalMeanMs: Number((totalMs / (RULES * TICKS)).toFixed(2)),
      tickTotalMs: Number((totalMs / TICKS).toFixed(1)),
      samplesPerTick: Math.round(samples / TICKS),
      failures,
    })}\n`,
  );
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
