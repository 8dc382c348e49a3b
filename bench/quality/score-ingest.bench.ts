/**
 * Score ingest throughput (issue 18's target: ≥ 50,000 scores/s on one core): batches of
 * BENCH_BATCH scores over 100 model/component/dimension triples, every score at its own
 * millisecond (the worst case: three samples per score, the mean, its weight and the count),
 *
 * - `inProcessScoresPerSec`: the body text through `parseScoreBatchJson`, `validateScoreBatch`,
 *   `createScoreIngest` and `QualityMetrics` into a real `Db` (`appendableSink`, WAL written,
 *   fsync on the store's default policy) in one process, one batch after another;
 * - `httpScoresPerSec`: the same bodies through `POST /api/v1/quality/scores` of a `startServer`
 *   on loopback, BENCH_CLIENTS requests in flight (the client runs in the same process, so this
 *   counts its cost too);
 * - `validateScoresPerSec`: parsing and validation alone.
 *
 * Env: BENCH_SCORES (default 300,000 per path), BENCH_BATCH (default 1,000), BENCH_CLIENTS (4).
 */
import { MemoryLogger } from '../../src/model/index.js';
import { QualityMetrics, createScoreIngest, parseScoreBatchJson, validateScoreBatch } from '../../src/quality/index.js';
import { appendableSink } from '../../src/server/series-sink.js';
import { startServer } from '../../src/server/serve.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

const total = Number(process.env.BENCH_SCORES ?? 300_000);
const batchSize = Number(process.env.BENCH_BATCH ?? 1_000);
const clients = Number(process.env.BENCH_CLIENTS ?? 4);
const DIMS = ['accuracy', 'relevance', 'safety', 'professional_tone', 'composite'];

/** The batches' body texts, times from `t0Ms` one ms apart; the clock of the run stands at their end. */
function bodies(t0Ms: number): string[] {
  const out: string[] = [];
  let t = t0Ms;
  for (let b = 0; b < total / batchSize; b++) {
    const scores = [];
    for (let i = 0; i < batchSize; i++, t++) {
      const k = (b * batchSize + i) % 100;
      scores.push({ model: `model-${k % 10}`, component: `comp-${k % 2}`, dimension: DIMS[k % 5], score: ((k * 37) % 101) / 100, evaluator: 'judge:bench', request_id: `req-${t}`, time: t / 1000 });
    }
    out.push(JSON.stringify({ scores }));
  }
  return out;
}

const START = Date.UTC(2026, 0, 5, 12, 0, 0);
const clockFor = (texts: readonly string[], t0: number) => () => t0 + texts.length * batchSize;

async function inProcess(): Promise<{ scoresPerSec: number; validatePerSec: number }> {
  const texts = bodies(START);
  const clock = clockFor(texts, START);
  let start = performance.now();
  for (const t of texts) validateScoreBatch(parseScoreBatchJson(t), clock());
  const validatePerSec = total / ((performance.now() - start) / 1000);
  const dir = tempDir('bench-score-ingest');
  const db = await Db.open({ dir: dir.dir, logger: new MemoryLogger(), clock });
  const ingest = createScoreIngest(new QualityMetrics({ sink: appendableSink(db), clock }), clock);
  start = performance.now();
  for (const t of texts) await ingest.ingest(validateScoreBatch(parseScoreBatchJson(t), clock()));
  const scoresPerSec = total / ((performance.now() - start) / 1000);
  await db.close();
  dir.remove();
  return { scoresPerSec, validatePerSec };
}

async function overHttp(): Promise<number> {
  const t0 = START + 3_600_000;
  const texts = bodies(t0);
  const clock = clockFor(texts, t0);
  const dir = tempDir('bench-score-ingest-http');
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: dir.dir }, logger: new MemoryLogger(), clock, ui: false, diagnose: { createDiagnoser: null } });
  await server.ready;
  const url = `http://127.0.0.1:${server.http.address.port}/api/v1/quality/scores`;
  let next = 0;
  const start = performance.now();
  // In flight at once, but each client's batches in order (a series' scores go forward in time either way).
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < texts.length) {
        const body = texts[next++];
        const res = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
        if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  const perSec = total / ((performance.now() - start) / 1000);
  await server.close();
  dir.remove();
  return perSec;
}

const { scoresPerSec, validatePerSec } = await inProcess();
const httpScoresPerSec = await overHttp();
process.stdout.write(
  `${JSON.stringify({
    bench: 'quality/score-ingest',
    scores: total,
    batchScores: batchSize,
    inProcessScoresPerSec: Math.round(scoresPerSec),
    httpScoresPerSec: Math.round(httpScoresPerSec),
    validateScoresPerSec: Math.round(validatePerSec),
  })}\n`,
);
