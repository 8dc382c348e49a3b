// gen-benchmark-catalog: writes src/cost/data/benchmarks.ts (the default benchmark catalog) from the
// simulator's performance model, for every model × instance type × engine its built-in scenarios
// run, plus the seed material's example entry.
//
//   npx tsx scripts/gen-benchmark-catalog.ts           write the file
//   npx tsx scripts/gen-benchmark-catalog.ts --check   exit 1 when the file is stale
//
// test/cost/benchmark-data.test.ts fails when the perf model and the file disagree.
//
// The simulated benchmark: `c` sequences decode together with 1,024-token prompts and 256-token
// answers, in steady state under continuous batching with chunked prefill. Every step gives each
// sequence one token and prefills, on average, 1024/256 = 4 prompt tokens per sequence (each
// sequence needs one 1,024-token prompt per 256 tokens out), so a step computes 5c tokens and reads
// the weights and c × 1,152 tokens of KV (mean context). Aggregate TPS = c / step time; per sequence
// 1 / step time; TTFT = one step that holds a whole 1,024-token prompt next to the c decodes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCENARIOS, buildPerfModel, demoScenario, instanceType, largeFleet, modelSpec, stepTime, type EngineKind, type PerfModel } from '../src/sim/index.js';

/** The prompt and answer lengths of the simulated benchmark. */
export const BENCH_PROMPT_TOKENS = 1024;
export const BENCH_OUTPUT_TOKENS = 256;
/** The concurrencies measured (up to the largest batch the replica holds). */
export const BENCH_CONCURRENCIES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/** Where the simulated entries' numbers come from. */
export const SIM_SOURCE = 'infersight simulator perf model (src/sim/perf.ts), for the demo';

/** One simulated benchmark point. */
export interface SimPoint {
  concurrency: number;
  perSeq: number;
  aggregate: number;
  ttftS: number;
}

const round = (x: number, digits: number): number => Number(x.toPrecision(digits));

/** The simulated benchmark points of one replica's perf model. */
export function simPoints(p: PerfModel): SimPoint[] {
  const ctx = BENCH_PROMPT_TOKENS + BENCH_OUTPUT_TOKENS / 2;
  const maxBatch = Math.max(1, Math.min(p.maxNumSeqs, Math.floor(p.kvCapacityTokens / (BENCH_PROMPT_TOKENS + BENCH_OUTPUT_TOKENS))));
  const prefillPerSeq = BENCH_PROMPT_TOKENS / BENCH_OUTPUT_TOKENS;
  const st = { totalS: 0, computeS: 0, memoryS: 0 };
  const out: SimPoint[] = [];
  for (const c of BENCH_CONCURRENCIES.filter((x) => x <= maxBatch)) {
    const step = stepTime(p, c, c * (1 + prefillPerSeq), c * ctx, BENCH_PROMPT_TOKENS / 2, 1, st).totalS;
    const ttft = stepTime(p, c, c + BENCH_PROMPT_TOKENS, c * ctx, BENCH_PROMPT_TOKENS / 2, 1, st).totalS;
    out.push({ concurrency: c, perSeq: round(1 / step, 4), aggregate: round(c / step, 4), ttftS: round(ttft, 3) });
  }
  return out;
}

/** The model × instance type × engine × GPUs per copy that the built-in scenarios run. */
export function scenarioCombos(): { model: string; instanceType: string; engine: EngineKind; gpus: number }[] {
  const seen = new Map<string, { model: string; instanceType: string; engine: EngineKind; gpus: number }>();
  const fleets = [demoScenario().fleet, largeFleet(100), ...Object.values(SCENARIOS).map((s) => s.fleet)];
  for (const f of fleets) {
    for (const ep of f.endpoints) {
      for (const c of ep.components) {
        const model = modelSpec(c.model).name;
        seen.set(`${model}/${ep.instanceType}/${c.engine}`, { model, instanceType: ep.instanceType, engine: c.engine, gpus: c.gpusPerCopy });
      }
    }
  }
  return [...seen.values()].sort((a, b) => `${a.model}/${a.instanceType}/${a.engine}`.localeCompare(`${b.model}/${b.instanceType}/${b.engine}`));
}

/** The seed material's example (issue 19): 500 output TPS on ml.g6.4xlarge. */
const SEED_EXAMPLE = `  # The seed material's example (issue 19): "a benchmark of 500 TPS on ml.g6.4xlarge". The seed
  # names neither model, engine nor concurrency: read here as Llama-3.1-8B on vLLM at a full batch.
  # Illustrative, not a measurement; no simulated scenario runs this combination.
  - model: meta-llama/Llama-3.1-8B-Instruct
    instance_type: ml.g6.4xlarge
    engine: vllm
    gpus_per_replica: 1
    source: "Infersight seed material, issue 19 example (illustrative; not measured)"
    points:
      - { concurrency: 64, output_tps_per_sequence: 7.8125, output_tps: 500 }
`;

/** The default benchmark catalog (YAML). */
export function benchmarkCatalogYaml(): string {
  const lines = [
    '# Infersight\'s default benchmark catalog: what one replica of a model generates on an instance',
    '# type with an engine, at several concurrencies. The simulated entries are computed from the',
    '# simulator\'s performance model by scripts/gen-benchmark-catalog.ts (regenerate, never edit):',
    `# ${BENCH_PROMPT_TOKENS}-token prompts, ${BENCH_OUTPUT_TOKENS}-token answers, steady continuous batching.`,
    '# They are the demo\'s ground truth, not measurements of real hardware: add your own measured',
    '# entries (vLLM\'s benchmark_serving, genai-perf, LLMPerf) in an override file.',
    'benchmarks:',
  ];
  for (const c of scenarioCombos()) {
    const p = buildPerfModel(modelSpec(c.model), instanceType(c.instanceType), c.gpus, c.engine, { downloadMBps: 1 });
    lines.push(`  - model: ${c.model}`, `    instance_type: ${c.instanceType}`, `    engine: ${c.engine}`, `    gpus_per_replica: ${c.gpus}`, `    source: "${SIM_SOURCE}"`, `    prompt_tokens: ${BENCH_PROMPT_TOKENS}`, '    points:');
    for (const x of simPoints(p)) lines.push(`      - { concurrency: ${x.concurrency}, output_tps_per_sequence: ${x.perSeq}, output_tps: ${x.aggregate}, ttft_s: ${x.ttftS} }`);
  }
  return `${lines.join('\n')}\n${SEED_EXAMPLE}`;
}

/** The text of src/cost/data/benchmarks.ts. */
export function benchmarkModule(): string {
  return `/**
 * The default benchmark catalog, as YAML text in a module so that tsc ships it with the build.
 * GENERATED by scripts/gen-benchmark-catalog.ts from the simulator's perf model: do not edit.
 */

/** The shipped default benchmark catalog (YAML). */
export const DEFAULT_BENCHMARK_CATALOG_YAML = \`${benchmarkCatalogYaml()}\`;
`;
}

const target = fileURLToPath(new URL('../src/cost/data/benchmarks.ts', import.meta.url));
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = benchmarkModule();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      process.stderr.write('gen-benchmark-catalog: src/cost/data/benchmarks.ts is stale; run `npx tsx scripts/gen-benchmark-catalog.ts`\n');
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
    process.stdout.write(`gen-benchmark-catalog: wrote ${target} (${text.split('\n').length} lines)\n`);
  }
}
