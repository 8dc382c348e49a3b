/**
 * Series selection among 300k series (the fleet data set's labels), in the head and in a block:
 * one series by its exact labels, a regex on `instance` that selects about 1% of the series, and
 * `gpu!=""` next to a set of two names and that regex (no equality narrows it: the label-presence
 * postings the TSDB caches). Reports the median over repeated queries of `select` plus walking the series set
 * (labels, no samples decoded).
 *
 * Env: BENCH_INSTANCES (default 1060 ≈ 300k series).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { matcher, type Matcher } from '../../src/model/index.js';
import { Db } from '../../src/tsdb/index.js';
import { instance, rng } from './fleet-dataset.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1060);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-select-'));
const HOUR = 3_600_000;

function medianMs(db: Db, minT: number, maxT: number, ms: Matcher[], runs: number): { ms: number; series: number } {
  const times: number[] = [];
  let series = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const q = db.querier(minT, maxT);
    const set = q.select(ms);
    series = 0;
    while (set.next()) series++;
    q.close();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], series };
}

try {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, retentionMs: 0 });
  const r = rng(7);
  const fleet = Array.from({ length: instances }, (_, i) => instance(i, r).series.map((s) => s.labels));
  // Three samples per series, 2 h apart: the first range is cut into a block, the rest stays in the head.
  for (const tMs of [0, 2 * HOUR, 4 * HOUR]) {
    for (const labels of fleet) {
      const app = db.appender();
      for (const l of labels) app.append(0, l, tMs, 1);
      await app.commit();
    }
  }
  await db.compact();
  const total = fleet.reduce((n, l) => n + l.length, 0);
  const target = fleet[instances >> 1][42];
  const exact = target.flat().reduce<Matcher[]>((acc, _v, i, flat) => (i % 2 === 0 ? [...acc, matcher('=', flat[i], flat[i + 1])] : acc), []);
  const regex = [matcher('=~', 'instance', 'ip-10-0-1-1[0-9]:8000')];
  // A dashboard's `{__name__=~"…", instance=~"$instance", gpu!=""}`: no equality to narrow `gpu!=""`.
  const nonEmpty = [matcher('=~', '__name__', 'DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED'), ...regex, matcher('!=', 'gpu', '')];
  const head = {
    exact: medianMs(db, 3 * HOUR, 5 * HOUR, exact, 2000),
    regex: medianMs(db, 3 * HOUR, 5 * HOUR, regex, 50),
    nonEmpty: medianMs(db, 3 * HOUR, 5 * HOUR, nonEmpty, 50),
  };
  const block = { exact: medianMs(db, 0, HOUR, exact, 2000), regex: medianMs(db, 0, HOUR, regex, 50), nonEmpty: medianMs(db, 0, HOUR, nonEmpty, 50) };
  await db.close();
  console.log(
    JSON.stringify({
      bench: 'tsdb.select',
      series: total,
      blocks: 1,
      headExactUs: Math.round(head.exact.ms * 1000),
      headRegexMs: Number(head.regex.ms.toFixed(2)),
      blockExactUs: Math.round(block.exact.ms * 1000),
      blockRegexMs: Number(block.regex.ms.toFixed(2)),
      headNonEmptyMs: Number(head.nonEmpty.ms.toFixed(2)),
      blockNonEmptyMs: Number(block.nonEmpty.ms.toFixed(2)),
      nonEmptySeries: head.nonEmpty.series,
      regexSeries: head.regex.series,
      regexShare: Number((head.regex.series / total).toFixed(4)),
      exactSeries: head.exact.series,
    }),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
