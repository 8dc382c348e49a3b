/**
 * The built-in scenarios, as data: the demo fleet (two endpoints, three models, three engines,
 * three AZs) under a diurnal load, and one scenario per fault kind with its fault on a timeline.
 * `largeFleet(n)` builds the benchmark fleet of n single-GPU instances.
 */
import type { ComponentSpec, EndpointSpec, FaultSpec, FleetSpec, LoadSpec, ScenarioSpec } from './spec.js';

const MIN = 60_000;
/** The three availability zones of the simulated region. */
export const AZS = ['us-east-1a', 'us-east-1b', 'us-east-1c'] as const;

function chatLoad(ratePerSec: number, diurnalPeriodMs: number): LoadSpec {
  return {
    ratePerSec,
    diurnalAmplitude: 0.3,
    diurnalPeriodMs,
    bursts: { meanGapMs: 25 * MIN, durationMs: 2 * MIN, multiplier: 1.6 },
    prompt: { kind: 'lognormal', median: 700, sigma: 0.8, min: 16, max: 12_000 },
    output: { kind: 'lognormal', median: 220, sigma: 0.6, min: 4, max: 1024 },
    prefixShare: 0.5,
    prefixTokens: 320,
  };
}

const autoscaling = (targetConcurrencyPerCopy: number) => ({ targetConcurrencyPerCopy, evaluationPeriodMs: MIN, scaleOutCooldownMs: 2 * MIN, scaleInCooldownMs: 10 * MIN });

/** The demo fleet: `chat-prod` (gpt-oss-20b on vLLM and Qwen2.5-7B on SGLang sharing ml.g5.12xlarge) and `llama-prod` (Llama-3.1-8B on DJL/LMI, ml.g6.4xlarge). */
export function demoFleet(diurnalPeriodMs = 24 * 60 * MIN): FleetSpec {
  const gptOss: ComponentSpec = {
    name: 'gpt-oss-20b',
    model: 'openai/gpt-oss-20b',
    engine: 'vllm',
    gpusPerCopy: 1,
    copies: { initial: 3, min: 2, max: 6 },
    maxModelLen: 16_384,
    load: chatLoad(2.4, diurnalPeriodMs),
    autoscaling: autoscaling(10),
    router: { rateLimitPerSec: 8 },
  };
  const qwen: ComponentSpec = {
    name: 'qwen2-5-7b-instruct',
    model: 'Qwen/Qwen2.5-7B-Instruct',
    engine: 'sglang',
    gpusPerCopy: 1,
    copies: { initial: 3, min: 2, max: 6 },
    maxModelLen: 16_384,
    load: chatLoad(1.8, diurnalPeriodMs),
    autoscaling: autoscaling(10),
  };
  const llama: ComponentSpec = {
    name: 'llama-3-1-8b-instruct',
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    engine: 'djl',
    gpusPerCopy: 1,
    copies: { initial: 3, min: 2, max: 8 },
    maxModelLen: 8192,
    load: { ...chatLoad(0.6, diurnalPeriodMs), prompt: { kind: 'lognormal', median: 500, sigma: 0.7, min: 16, max: 7000 } },
    autoscaling: autoscaling(8),
  };
  const endpoints: EndpointSpec[] = [
    { name: 'chat-prod', instanceType: 'ml.g5.12xlarge', instances: { initial: 3, max: 5 }, azs: AZS, components: [gptOss, qwen] },
    { name: 'llama-prod', instanceType: 'ml.g6.4xlarge', instances: { initial: 3, max: 8 }, azs: AZS, components: [llama] },
  ];
  return { endpoints };
}

const fault = (kind: FaultSpec['kind'], startMin: number, endMin: number, scope: FaultSpec['scope'], params?: FaultSpec['params']): FaultSpec => ({
  kind,
  startMs: startMin * MIN,
  endMs: endMin * MIN,
  scope,
  ...(params === undefined ? {} : { params }),
});

const scenario = (name: string, description: string, faults: FaultSpec[], durationMin = 30): ScenarioSpec => ({
  name,
  description,
  fleet: demoFleet(),
  faults,
  durationMs: durationMin * MIN,
});

/** Every built-in scenario, keyed by name. */
export const SCENARIOS: Readonly<Record<string, ScenarioSpec>> = Object.fromEntries(
  [
    scenario('steady', 'The demo fleet under its normal diurnal load, no faults.', []),
    scenario('kv-cache-pressure', 'Qwen2.5-7B gets longer prompts and much longer answers: KV usage climbs to the limit, then preemptions and TTFT.', [
      fault('kv-cache-pressure', 5, 20, { component: 'qwen2-5-7b-instruct' }),
    ]),
    scenario('az-traffic-skew', 'chat-prod routes nothing to us-east-1a and its share to us-east-1b.', [
      fault('az-traffic-skew', 5, 20, { endpoint: 'chat-prod', az: 'us-east-1a' }, { toAz: 'us-east-1b' }),
    ]),
    scenario('cold-start-storm', 'A fourfold burst on Llama-3.1-8B forces scale-out while model downloads crawl.', [
      fault('cold-start-storm', 5, 25, { component: 'llama-3-1-8b-instruct' }),
    ]),
    scenario('gpu-memory-saturation', 'A foreign process fills GPU memory on chat-prod-i2: OOM crash, restart with a small KV cache.', [
      fault('gpu-memory-saturation', 8, 20, { instance: 'chat-prod-i2' }),
    ]),
    scenario('prompt-length-shift', 'gpt-oss-20b prompts triple in length from minute 5.', [fault('prompt-length-shift', 5, 30, { component: 'gpt-oss-20b' })]),
    scenario('slow-instance', "chat-prod-i1's GPUs throttle: its replicas are TTFT and TPS outliers.", [fault('slow-instance', 5, 20, { instance: 'chat-prod-i1' })]),
    scenario('rate-limit-burst', 'A fivefold burst on gpt-oss-20b runs into the front-door rate limit: 429s.', [
      fault('rate-limit-burst', 5, 10, { component: 'gpt-oss-20b' }),
    ]),
    scenario('engine-errors', 'Qwen2.5-7B engines fail requests: 500s, 503s and aborted streams.', [fault('engine-errors', 5, 15, { component: 'qwen2-5-7b-instruct' })]),
    scenario('throughput-below-benchmark', 'gpt-oss-20b on ml.g5.12xlarge runs misconfigured (tiny batch, eager mode): far below its benchmark TPS.', [
      fault('throughput-below-benchmark', 5, 25, { instanceType: 'ml.g5.12xlarge', component: 'gpt-oss-20b' }),
    ]),
    { name: 'idle-instance', description: 'One endpoint of three instances holding two replicas: one instance serves nothing (idle GPUs).', fleet: idleInstanceFleet(), faults: [], durationMs: 30 * MIN },
    { name: 'bound-mix', description: 'A decode-heavy component (memory-bound) and a prefill-heavy one (compute-bound) on one instance.', fleet: boundMixFleet(), faults: [], durationMs: 30 * MIN },
    scenario('quality-drift', "gpt-oss-20b's judged relevance and tone fall while its latency stays normal.", [fault('quality-drift', 5, 30, { component: 'gpt-oss-20b' })]),
  ].map((s) => [s.name, s]),
);

/**
 * `idle-instance`: one endpoint of three single-GPU instances that holds two replicas, so one
 * instance is paid for and serves nothing (the cost view's idle-GPU ground truth).
 */
export function idleInstanceFleet(): FleetSpec {
  const llama: ComponentSpec = {
    name: 'llama-spare',
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    engine: 'vllm',
    gpusPerCopy: 1,
    copies: { initial: 2, min: 2, max: 2 },
    maxModelLen: 8192,
    load: { ...chatLoad(0.5, 120 * MIN), bursts: undefined },
  };
  return { endpoints: [{ name: 'spare-prod', instanceType: 'ml.g6.xlarge', instances: { initial: 3, max: 3 }, azs: AZS, components: [llama] }] };
}

/**
 * `bound-mix`: two components sharing one ml.g6e.12xlarge endpoint, one decode-heavy (short prompts,
 * long answers: memory-bound, each step reads the weights for a token per sequence) and one
 * prefill-heavy (long prompts, short answers: compute-bound), the ground truth of the bound verdict.
 */
export function boundMixFleet(): FleetSpec {
  const base = { engine: 'vllm' as const, gpusPerCopy: 1, copies: { initial: 1, min: 1, max: 1 }, maxModelLen: 8192 };
  const decode: ComponentSpec = {
    ...base,
    name: 'decode-heavy',
    model: 'Qwen/Qwen2.5-7B-Instruct',
    load: { ratePerSec: 0.8, diurnalAmplitude: 0, diurnalPeriodMs: 120 * MIN, prompt: { kind: 'fixed', value: 64 }, output: { kind: 'fixed', value: 1024 } },
  };
  const prefill: ComponentSpec = {
    ...base,
    name: 'prefill-heavy',
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    load: { ratePerSec: 1, diurnalAmplitude: 0, diurnalPeriodMs: 120 * MIN, prompt: { kind: 'fixed', value: 6000 }, output: { kind: 'fixed', value: 8 } },
  };
  return { endpoints: [{ name: 'mix-prod', instanceType: 'ml.g6e.12xlarge', instances: { initial: 1, max: 1 }, azs: AZS, components: [decode, prefill] }] };
}

/** The demo scenario: the steady fleet with a two-hour diurnal cycle, so the shape shows within a session. */
export function demoScenario(): ScenarioSpec {
  return { ...SCENARIOS.steady, name: 'demo', fleet: demoFleet(120 * MIN), durationMs: 24 * 60 * MIN };
}

/** `fleet-<N>`: the steady benchmark fleet of N single-GPU instances (`largeFleet`), 1 to 5,000. */
const LARGE_FLEET = /^fleet-([1-9]\d{0,3})$/;

/** Whether `name` names a built-in scenario: `demo`, one of `SCENARIOS`, or `fleet-<N>`. */
export function isScenarioName(name: string): boolean {
  return name === 'demo' || Object.hasOwn(SCENARIOS, name) || (LARGE_FLEET.test(name) && Number(name.slice(6)) <= 5000);
}

/** Looks up a built-in scenario (`demo` and `fleet-<N>` included) or throws naming the known ones. */
export function scenarioByName(name: string): ScenarioSpec {
  if (name === 'demo') return demoScenario();
  if (LARGE_FLEET.test(name) && isScenarioName(name)) {
    const n = Number(name.slice(6));
    return { name, description: `The benchmark fleet: ${n} single-GPU instances, steady load.`, fleet: largeFleet(n), faults: [], durationMs: 24 * 60 * MIN };
  }
  const s = Object.hasOwn(SCENARIOS, name) ? SCENARIOS[name] : undefined;
  if (s === undefined) throw new Error(`sim: unknown scenario ${JSON.stringify(name)} (known: demo, ${Object.keys(SCENARIOS).join(', ')}, fleet-<N>)`);
  return s;
}

/**
 * The benchmark fleet: `instances` single-GPU ml.g6.xlarge instances, ten per endpoint, each
 * endpoint one component of Llama-3.1-8B on vLLM, SGLang or DJL/LMI (6:3:1), at moderate load.
 */
export function largeFleet(instances: number): FleetSpec {
  const endpoints: EndpointSpec[] = [];
  const engines = ['vllm', 'vllm', 'sglang', 'vllm', 'vllm', 'sglang', 'vllm', 'djl', 'vllm', 'sglang'] as const;
  for (let e = 0; e * 10 < instances; e++) {
    const n = Math.min(10, instances - e * 10);
    const engine = engines[e % engines.length];
    const load = { ...chatLoad(0.25 * n, 24 * 60 * MIN), bursts: undefined, prompt: { kind: 'lognormal' as const, median: 500, sigma: 0.7, min: 16, max: 6000 } };
    endpoints.push({
      name: `ep-${String(e).padStart(3, '0')}`,
      instanceType: 'ml.g6.xlarge',
      instances: { initial: n, max: n },
      azs: AZS,
      components: [{ name: `llama-${String(e).padStart(3, '0')}`, model: 'meta-llama/Llama-3.1-8B-Instruct', engine, gpusPerCopy: 1, copies: { initial: n, min: n, max: n }, maxModelLen: 8192, load }],
    });
  }
  return { endpoints };
}
