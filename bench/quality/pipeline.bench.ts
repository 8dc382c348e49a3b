/**
 * Stage-1 evaluation on one core: `runStage1` (all eight checks, a blocklist and the length
 * baselines) over a seeded set of realistic pairs (chat answers of 200–2,000 characters, some
 * with JSON asked for, PII, refusals, other languages and markup), pure CPU, no store. Also the
 * whole pipeline with in-memory store and metrics doubles and no judge, to show what the
 * pipeline adds around stage 1, and the whole pipeline over the real embedded sample store (PGlite
 * in a temp dir: every pair and its eight stage-1 evaluations stored, in the pipeline's own
 * batches), which is the issue's "sample store with stage-1 evaluation, on one core": PGlite runs
 * in this process, so wall time and this process' CPU time are the whole cost. One JSON line.
 *
 * Env: BENCH_PAIRS (default 20,000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mulberry32 } from '../../src/model/index.js';
import { LengthTracker, QualityPipeline, openSampleStore, runStage1, type QualityPipelineOptions, type SampledPair } from '../../src/quality/index.js';
import { MemoryPairStore, RecordingMetrics, sampleInput } from '../../src/quality/testing/pipeline-doubles.js';

const N = Number(process.env.BENCH_PAIRS ?? 20_000);
const random = mulberry32(18);
const WORDS = 'the cache keeps keys and values of past tokens so that decoding does not recompute them which makes each step memory bound on the GPU'.split(' ');
const EXTRAS = [
  '',
  ' Contact ops@example.com or +1 415 555 0100.',
  " I'm sorry, but I can't help with that.",
  ' Der Cache speichert die Schlüssel und die Werte, damit sie nicht neu berechnet werden.',
  ' <script>alert(1)</script> <b>bold</b>',
  ' Key: sk-proj-abcdefghijklmnopqrstuvwxyz0123456789',
];

function text(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  return `${out.join(' ')}.`;
}

const pairs: SampledPair[] = Array.from({ length: 2000 }, (_, i) => {
  const json = random() < 0.1;
  const response = json ? JSON.stringify({ answer: text(30), score: random() }) : text(30 + Math.floor(random() * 300)) + EXTRAS[Math.floor(random() * EXTRAS.length)];
  return {
    id: `p${i}`,
    tMs: 1_767_600_000_000 + i,
    endpoint: 'chat',
    component: `c${i % 4}`,
    model: `m${i % 4}`,
    prompt: `system: Be brief.\nuser: ${text(20 + Math.floor(random() * 80))}`,
    response,
    status: 200,
    finishReason: random() < 0.05 ? 'length' : 'stop',
    promptTokens: 100,
    completionTokens: Math.ceil(response.length / 4),
    wantJson: json,
    ttftS: 0.2,
    e2eS: 2,
  };
});
const chars = pairs.reduce((n, p) => n + p.prompt.length + p.response.length, 0) / pairs.length;

function stage1PerSec(): number {
  const lengths = new LengthTracker();
  const o = { lengths, blocklist: ['darn', 'kill switch', 'confidential'], monotonicMs: () => 0 };
  let flags = 0;
  for (let i = 0; i < 2000; i++) flags += runStage1(pairs[i % pairs.length], o).filter((e) => e.flag !== null).length; // warm-up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) flags += runStage1(pairs[i % pairs.length], o).filter((e) => e.flag !== null).length;
  const s = (performance.now() - t0) / 1000;
  if (flags < 0) throw new Error('unreachable');
  return N / s;
}

/** Pairs per second of wall time and of this process' CPU time through the pipeline into `store`. */
async function pipelinePerSec(store: QualityPipelineOptions['store']): Promise<{ wall: number; cpu: number }> {
  const pipeline = new QualityPipeline({
    store,
    metrics: new RecordingMetrics(),
    judge: null,
    rubrics: [],
    judgeShare: 0,
    maxConcurrency: 1,
    tokenBudgetPerHour: 0,
    redact: (t) => t,
    clock: () => 1_767_600_000_000,
    random: mulberry32(1),
    maxQueue: N + 1,
  });
  const inputs = Array.from({ length: N }, (_, i) => sampleInput(i, { content: pairs[i % pairs.length].prompt, response: { text: pairs[i % pairs.length].response, finishReasons: ['stop'], error: null } }));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const s of inputs) pipeline.accept(s);
  await pipeline.drain();
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wall: N / wallS, cpu: N / ((cpu.user + cpu.system) / 1e6) };
}

/** The pipeline into PGlite in a temp dir, with the evaluations it stored per pair. */
async function intoPGlite(): Promise<{ wall: number; cpu: number; evaluationsPerPair: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-quality-pipeline-'));
  const store = await openSampleStore({ kind: 'pglite', dir });
  try {
    const rate = await pipelinePerSec(store);
    const st = await store.stats();
    if (st.pairs !== N) throw new Error(`stored ${st.pairs} pairs, want ${N}`);
    return { ...rate, evaluationsPerPair: st.evaluations / st.pairs };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const stage1 = stage1PerSec();
const noStore = await pipelinePerSec(new MemoryPairStore());
const real = await intoPGlite();
const out = {
  bench: 'quality/pipeline',
  pairs: N,
  meanCharsPerPair: Math.round(chars),
  stage1PairsPerSec: Math.round(stage1),
  stage1EvaluationsPerSec: Math.round(stage1 * 8),
  pipelinePairsPerSecNoStore: Math.round(noStore.wall),
  pipelineIntoPGlitePairsPerSec: Math.round(real.wall),
  pipelineIntoPGlitePairsPerCpuSec: Math.round(real.cpu),
  pipelineIntoPGliteEvaluationsPerPair: real.evaluationsPerPair,
};
process.stdout.write(JSON.stringify(out) + '\n');
