/**
 * Scrape ingest on one core, on the fleet data set's exposition text (fleet-exposition.ts: per
 * instance a vLLM body and a DCGM body, HELP and TYPE lines included, ≈ 283 series per instance):
 *
 * 1. parse: `parseExposition` alone (text 0.0.4, a no-op sample callback), over every body of
 *    one scrape round, after an untimed pass: lines/s (every line: samples, HELP, TYPE; target
 *    ≥ 2,000,000), sample lines/s, MB/s.
 * 2. parse + append: what a scrape loop does per target and scrape (`appendScrape`: parse, label
 *    cache, target labels, staleness bookkeeping; `appendReport`: `up` and the other synthetic
 *    series; one appender and one commit per scrape) through `NormalizingAppendable` into a real
 *    `Db` in a temp dir (WAL on, fsync every 1 s). Scrape 0 creates every series and is reported
 *    apart; scrapes 1..BENCH_ROUNDS are the steady state. Bodies are formatted before the clock
 *    starts, one round at a time.
 *
 * Env: BENCH_INSTANCES (default 1000 = 2,000 targets, ≈ 283,000 series), BENCH_ROUNDS (default 5).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendReport, appendScrape, ScrapeCache, type SampleMutation, type ScrapeLimits } from '../../src/ingest/scrape/scrape-append.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import { Db } from '../../src/tsdb/index.js';
import { parseExposition } from '../../src/wire/index.js';
import { instance, requestsPerScrape, rng } from '../tsdb/fleet-dataset.js';
import { expositionTargets, formatTarget } from './fleet-exposition.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const START_MS = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const NO_LIMITS: ScrapeLimits = { sampleLimit: 0, labelLimit: 0, labelNameLengthLimit: 0, labelValueLengthLimit: 0 };

const r = rng(7);
const insts = Array.from({ length: instances }, (_, i) => instance(i, r));
const targets = insts.map((inst) => expositionTargets(inst));
const values = insts.map((inst) => new Float64Array(inst.series.length));

/** Advances every instance by one 15 s scrape and formats every target's body. */
function nextRound(): string[] {
  const bodies: string[] = [];
  insts.forEach((inst, i) => {
    const n = requestsPerScrape(inst.rate, r);
    inst.series.forEach((s, k) => (values[i][k] = s.next(n, r)));
    for (const t of targets[i]) bodies.push(formatTarget(t, values[i]));
  });
  return bodies;
}

const lineCount = (body: string): number => {
  let n = 0;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) n++;
  return n;
};

// 1. Parsing alone.
let bodies = nextRound();
const linesPerRound = bodies.reduce((n, b) => n + lineCount(b), 0);
const bytesPerRound = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0);
for (const b of bodies) parseExposition(b, 'prometheus-0.0.4', () => undefined);
const PARSE_PASSES = 3;
let samplesPerRound = 0;
let t0 = performance.now();
for (let pass = 0; pass < PARSE_PASSES; pass++) {
  samplesPerRound = 0;
  for (const b of bodies) samplesPerRound += parseExposition(b, 'prometheus-0.0.4', () => undefined).samples;
}
const parseSeconds = (performance.now() - t0) / 1000;

// 2. Parse + append through the normalizer into a Db, as the scrape loop does it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-scrape-'));
let nowMs = START_MS;
let firstSeconds = 0;
let steadySeconds = 0;
let appended = 0;
let headSeries = 0;
try {
  const db = await Db.open({ dir, fsync: { mode: 'interval', intervalMs: 1000 }, retentionMs: 0, clock: () => nowMs });
  const normalizing = new NormalizingAppendable(db);
  const scrapes = targets.flat().map((t) => ({
    cache: new ScrapeCache(),
    mutation: { targetLabels: t.targetLabels, honorLabels: false, honorTimestamps: true, metricRelabelConfigs: [] } satisfies SampleMutation,
  }));
  for (let k = 0; k <= rounds; k++) {
    if (k > 0) bodies = nextRound();
    nowMs = START_MS + k * 15_000;
    t0 = performance.now();
    for (let j = 0; j < bodies.length; j++) {
      const { cache, mutation } = scrapes[j];
      const app = normalizing.appender();
      const counts = appendScrape(app, bodies[j], 'prometheus-0.0.4', nowMs, cache, mutation, NO_LIMITS);
      appendReport(app, nowMs, cache, mutation.targetLabels, [1, 0.01, counts.total, counts.added, counts.seriesAdded]);
      await app.commit();
      if (k > 0) appended += counts.added;
    }
    const s = (performance.now() - t0) / 1000;
    if (k === 0) firstSeconds = s;
    else steadySeconds += s;
  }
  headSeries = db.stats().head.series;
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

console.log(
  JSON.stringify({
    bench: 'ingest.scrape',
    instances,
    targets: bodies.length,
    samplesPerScrapeRound: samplesPerRound,
    linesPerScrapeRound: linesPerRound,
    bytesPerScrapeRound: bytesPerRound,
    linesPerSecParse: Math.round((linesPerRound * PARSE_PASSES) / parseSeconds),
    samplesPerSecParse: Math.round((samplesPerRound * PARSE_PASSES) / parseSeconds),
    mbPerSecParse: Number(((bytesPerRound * PARSE_PASSES) / 1e6 / parseSeconds).toFixed(1)),
    samplesPerSecParseAppendFirstScrape: Math.round(samplesPerRound / firstSeconds),
    samplesPerSecParseAppend: Math.round(appended / steadySeconds),
    rounds,
    headSeries,
    loadAvg1m: Number(os.loadavg()[0].toFixed(2)),
  }),
);
