/**
 * Throughput of the normalizer (src/normalize) on the fleet data set's vLLM + DCGM series (about
 * 283 per instance): the first sample of each series (planning), then steady scrapes with the refs
 * the normalizer returned (the scraper's path), with labels only (ref 0) for callers that keep
 * their `Labels` objects (identity lookup) and for callers that build new ones per scrape, as a
 * parser does (hash + equals lookup), and with keepRaw. Planning is timed on a fresh normalizer
 * after a warm-up one, so it measures the code, not the JIT. The inner appendable does nothing, so the numbers are the normalizer's cost;
 * `baselineSamplesPerSec` is the same loop straight into the inner appendable.
 *
 * Env: BENCH_INSTANCES (default 200), BENCH_SCRAPES (default 20).
 */
import { Labels } from '../../src/model/index.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import type { Appendable, Appender } from '../../src/storage/index.js';
import { instance, rng } from '../tsdb/fleet-dataset.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 100 * 2);
const scrapes = Number(process.env.BENCH_SCRAPES ?? 20);

/** Accepts everything and keeps nothing but a checksum, so the JIT cannot drop the work. */
class NullAppendable implements Appendable {
  sink = 0;
  private next = 0;
  appender(): Appender {
    return {
      append: (ref, _labels, tMs, value) => {
        this.sink += value + tMs;
        return ref === 0 ? ++this.next : ref;
      },
      commit: async () => undefined,
      rollback: () => undefined,
    };
  }
}

const r = rng(11);
const labels: Labels[] = [];
for (let i = 0; i < instances; i++) for (const s of instance(i, r).series) labels.push(s.labels);
const values = Float64Array.from(labels, (_, i) => (i % 97) * 1.5);
/** Equal label sets in new objects, as a parser produces them on every scrape. */
const copies = labels.map((l) => Labels.fromPairs(l.flat()));

function loop(app: Appender, refs: Int32Array | undefined, rounds: number, t0: number, ls = labels): number {
  const start = performance.now();
  for (let k = 0; k < rounds; k++) {
    const t = t0 + k * 15_000;
    for (let i = 0; i < ls.length; i++) {
      if (refs === undefined) app.append(0, ls[i], t, values[i] + k);
      else refs[i] = app.append(refs[i], ls[i], t, values[i] + k);
    }
  }
  return (ls.length * rounds) / ((performance.now() - start) / 1000);
}

interface Result {
  plan: number;
  refs: number;
  sameLabels: number;
  newLabels: number;
}

async function measure(keepRaw: boolean): Promise<Result> {
  const warm = new NormalizingAppendable(new NullAppendable(), { keepRaw }).appender();
  loop(warm, new Int32Array(labels.length), 1, 0);
  const app = new NormalizingAppendable(new NullAppendable(), { keepRaw }).appender();
  const refs = new Int32Array(labels.length);
  const plan = loop(app, refs, 1, 0); // first sample of every series: planning
  loop(app, refs, 3, 15_000); // warm-up
  let t = 60_000;
  const withRefs = loop(app, refs, scrapes, t);
  t += scrapes * 15_000;
  const rounds = Math.max(1, scrapes >> 2);
  const sameLabels = loop(app, undefined, rounds, t);
  t += rounds * 15_000;
  const newLabels = loop(app, undefined, rounds, t, copies);
  await app.commit();
  return { plan, refs: withRefs, sameLabels, newLabels };
}

const baselineInner = new NullAppendable();
const baselineApp = baselineInner.appender();
const baseRefs = new Int32Array(labels.length);
loop(baselineApp, baseRefs, 4, 0);
const baseline = loop(baselineApp, baseRefs, scrapes, 60_000);

const plain = await measure(false);
const raw = await measure(true);
console.log(
  JSON.stringify({
    bench: 'normalize',
    series: labels.length,
    samples: labels.length * scrapes,
    planSeriesPerSec: Math.round(plain.plan),
    samplesPerSec: Math.round(plain.refs),
    samplesPerSecSameLabels: Math.round(plain.sameLabels),
    samplesPerSecNewLabels: Math.round(plain.newLabels),
    samplesPerSecKeepRaw: Math.round(raw.refs),
    baselineSamplesPerSec: Math.round(baseline),
  }),
);
