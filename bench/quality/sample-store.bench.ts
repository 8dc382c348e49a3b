/**
 * The sample store's write rate and size: sampled pairs (a 1.5 kB prompt, a 600 B answer) stored
 * in batches with eight stage-1-shaped evaluations each (one per STAGE1_FLAGS check), on PGlite in
 * a temp dir (the default, WebAssembly in this process: one core) and on Debian's PostgreSQL when
 * installed (a server process of its own). Store only: the stage-1 checks' own cost is added where
 * the pipeline runs them (bench/quality, q-eval). One JSON line.
 *
 * Knobs: BENCH_PAIRS (default 20000), BENCH_BATCH (pairs per batch, default 500). Under CI=true a
 * missing PostgreSQL fails the bench.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STAGE1_FLAGS, openSampleStore, type Evaluation, type SampleStore, type SampledPair } from '../../src/quality/index.js';
import { mulberry32 } from '../../src/model/index.js';
import { findPeer, startPostgres } from '../../test/peers/peers.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const T0 = 1_767_225_600_000;
const WORDS = 'the a model answer GPU latency memory request token cache shard replica prompt quality drift score batch queue'.split(' ');

function text(random: () => number, bytes: number): string {
  let s = '';
  while (s.length < bytes) s += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return s.slice(0, bytes);
}

function batches(): { pairs: SampledPair[]; evaluations: Evaluation[] }[] {
  const random = mulberry32(18);
  const out: { pairs: SampledPair[]; evaluations: Evaluation[] }[] = [];
  for (let b = 0; b * BATCH < PAIRS; b++) {
    const pairs: SampledPair[] = [];
    const evaluations: Evaluation[] = [];
    for (let i = b * BATCH; i < Math.min(PAIRS, (b + 1) * BATCH); i++) {
      const id = `req-${i.toString(36)}-${Math.floor(random() * 1e9).toString(36)}`;
      pairs.push({
        id,
        tMs: T0 + i * 10,
        endpoint: 'chat-prod',
        component: `component-${i % 4}`,
        model: i % 2 === 0 ? 'llama-3.1-8b' : 'qwen2.5-7b',
        prompt: `user: ${text(random, 1500)}`,
        response: text(random, 600),
        status: 200,
        finishReason: 'stop',
        promptTokens: 350,
        completionTokens: 140,
        wantJson: false,
        ttftS: 0.2 + random(),
        e2eS: 2 + random(),
      });
      for (const flag of STAGE1_FLAGS) {
        const hit = random() < 0.05;
        evaluations.push({ pairId: id, stage: 1, evaluator: `stage1:${flag}`, dimension: null, score: hit ? 0 : 1, flag: hit ? flag : null, detail: hit ? `${flag} detected` : '', error: null, durationS: 0.00002, judgeTokens: null, tMs: T0 + i * 10 });
      }
    }
    out.push({ pairs, evaluations });
  }
  return out;
}

interface Result {
  /** Pairs (with their evaluations) stored per second of wall time. */
  pairsPerSec: number;
  /** Per second of this process' CPU time: PGlite's whole cost on one core (PostgreSQL's server works in a process of its own). */
  pairsPerCpuSec: number;
  bytesPer1000Pairs: number;
  evaluationsPerPair: number;
}

async function measure(store: SampleStore): Promise<Result> {
  const data = batches();
  // Warm-up on other ids, then the measured run into an empty store.
  await store.putPairs(data[0].pairs.map((p) => ({ ...p, id: `warm-${p.id}` })));
  await store.enforceRetention(T0 + 1e12, { maxAgeMs: 0, maxBytes: Infinity });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const b of data) {
    await store.putPairs(b.pairs);
    await store.putEvaluations(b.evaluations);
  }
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const st = await store.stats();
  if (st.pairs !== PAIRS) throw new Error(`stored ${st.pairs} pairs, want ${PAIRS}`);
  return { pairsPerSec: Math.round(PAIRS / s), pairsPerCpuSec: Math.round(PAIRS / cpuS), bytesPer1000Pairs: Math.round((st.bytes / st.pairs) * 1000), evaluationsPerPair: st.evaluations / st.pairs };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-quality-store-'));
try {
  const pglite = await openSampleStore({ kind: 'pglite', dir: path.join(dir, 'pglite') });
  const onPGlite = await measure(pglite);
  await pglite.close();
  let onPostgres: Result | null = null;
  const binary = findPeer('postgres');
  if (binary === null && process.env.CI === 'true') throw new Error('postgres is not installed; CI must install it (see .ci/run)');
  if (binary !== null) {
    // A temp dir of its own: under root it is handed to the postgres user, who cannot enter `dir`.
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-quality-pg-'));
    const server = await startPostgres(binary, pgDir);
    try {
      const pgStore = await openSampleStore({ kind: 'postgres', connectionString: server.connectionString });
      onPostgres = await measure(pgStore);
      await pgStore.close();
    } finally {
      await server.stop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${JSON.stringify({ bench: 'quality/sample-store', pairs: PAIRS, batchPairs: BATCH, stage1: 'store only (evaluation rows, no checks run)', pglite: onPGlite, postgres: onPostgres })}\n`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
