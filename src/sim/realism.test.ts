import { describe, expect, it } from 'vitest';
import { scenarioByName } from './scenarios.js';
import { Simulation } from './simulation.js';
import type { ScenarioSpec } from './spec.js';
import { TargetRegistry, type SimTarget } from './targets.js';
import { singleReplica } from './testing/scenario.js';
import { scrape, total, type Scrape } from './testing/scrape.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;

/** Runs `scenario` to `minutes`, calling `each` every `everyS` virtual seconds with fresh scrapes. */
function run(
  scenario: ScenarioSpec,
  minutes: number,
  everyS: number,
  each?: (tMs: number, scrapes: Map<string, Scrape>, sim: Simulation) => void,
  only: (t: SimTarget) => boolean = () => true,
): Simulation {
  const seed = 7;
  const sim = new Simulation({ scenario, seed, startMs: T0 });
  const reg = new TargetRegistry(sim);
  for (let t = T0 + everyS * 1000; t <= T0 + minutes * MIN; t += everyS * 1000) {
    sim.advanceTo(t);
    if (each === undefined) continue;
    reg.sync();
    const m = new Map<string, Scrape>();
    for (const target of reg.list()) {
      if (!only(target)) continue;
      const s = scrape(target);
      if (s !== undefined) m.set(target.id, s);
    }
    each(t, m, sim);
  }
  return sim;
}

const engine = (m: Map<string, Scrape>): Scrape => [...m.values()].find((s) => s.target.kind === 'engine')!;

describe("Little's law (L = λW) on the engine's own gauges and histograms", () => {
  it.each([
    ['vllm', 'vllm:num_requests_waiting', 'vllm:request_queue_time_seconds_sum', 'vllm:num_requests_running', 'vllm:e2e_request_latency_seconds_sum'],
    ['sglang', 'sglang:num_queue_reqs', 'sglang:queue_time_seconds_sum', 'sglang:num_running_reqs', 'sglang:e2e_request_latency_seconds_sum'],
  ] as const)('%s: mean queue length ≈ Δ(queue time sum)/Δt, mean in system ≈ Δ(e2e sum)/Δt', (kind, waiting, queueSum, running, e2eSum) => {
    // A batch limit of 8 makes a queue without KV pressure (no preemptions to blur queue time).
    const sc = singleReplica(kind, 0.8, {}, [{ kind: 'throughput-below-benchmark', startMs: 0, endMs: 4 * 60 * MIN, scope: {}, params: { maxNumSeqs: 8, slowdown: 1 } }]);
    let wSum = 0;
    let sysSum = 0;
    let n = 0;
    let first: Scrape | undefined;
    let last: Scrape | undefined;
    run(sc, 60, 5, (t, m) => {
      if (t < T0 + 10 * MIN) return; // warm-up
      const s = engine(m);
      first ??= s;
      last = s;
      wSum += total(s, waiting);
      sysSum += total(s, waiting) + total(s, running);
      n++;
    });
    const spanS = (n - 1) * 5;
    const lQueue = wSum / n;
    const lSystem = sysSum / n;
    expect(lQueue).toBeGreaterThan(0.3); // a real queue
    expect(Math.abs(lQueue / ((total(last, queueSum) - total(first, queueSum)) / spanS) - 1)).toBeLessThan(0.15);
    expect(Math.abs(lSystem / ((total(last, e2eSum) - total(first, e2eSum)) / spanS) - 1)).toBeLessThan(0.1);
  });
});

describe('TTFT', () => {
  const meanTtft = (sc: ScenarioSpec): number => {
    let s: Scrape | undefined;
    run(sc, 30, 30 * 60, (_t, m) => (s = engine(m)));
    return total(s, 'vllm:time_to_first_token_seconds_sum') / total(s, 'vllm:time_to_first_token_seconds_count');
  };

  it('rises with prompt length', () => {
    const ttft = [200, 1000, 4000].map((p) => meanTtft(singleReplica('vllm', 0.05, { prompt: { kind: 'fixed', value: p } })));
    expect(ttft[1]).toBeGreaterThan(ttft[0] * 2);
    expect(ttft[2]).toBeGreaterThan(ttft[1] * 2);
  });

  it('rises with load (queueing and batched prefill)', () => {
    const ttft = [0.1, 0.6, 1.2].map((rate) => meanTtft(singleReplica('vllm', rate, { prompt: { kind: 'fixed', value: 1500 }, output: { kind: 'fixed', value: 150 } })));
    expect(ttft[1]).toBeGreaterThan(ttft[0] * 1.1);
    expect(ttft[2]).toBeGreaterThan(ttft[1] * 1.1);
  });
});

describe('scenario realism', () => {
  it('kv-cache-pressure: KV usage is high before the first preemption of each replica', () => {
    const history = new Map<string, { tMs: number; usage: number; retracted: number }[]>();
    run(scenarioByName('kv-cache-pressure'), 20, 5, (t, m) => {
      for (const s of m.values()) {
        if (s.target.component?.spec.name !== 'qwen2-5-7b-instruct' || s.target.kind !== 'engine') continue;
        const h = history.get(s.target.id) ?? [];
        history.set(s.target.id, h);
        h.push({ tMs: t, usage: total(s, 'sglang:token_usage'), retracted: total(s, 'sglang:num_retracted_requests_total') });
      }
    }, (t) => t.kind === 'engine' && t.labels.component === 'qwen2-5-7b-instruct');
    let preempted = 0;
    for (const h of history.values()) {
      expect(Math.max(...h.filter((x) => x.tMs < T0 + 5 * MIN).map((x) => x.usage), 0)).toBeLessThan(0.7);
      expect(h.every((x) => x.retracted === 0 || x.tMs > T0 + 5 * MIN)).toBe(true);
      const i = h.findIndex((x) => x.retracted > 0);
      if (i < 0) continue;
      preempted++;
      expect(i).toBeGreaterThan(0);
      expect(Math.max(...h.slice(Math.max(0, i - 12), i + 1).map((x) => x.usage))).toBeGreaterThan(0.85);
    }
    expect(preempted).toBeGreaterThan(0);
  });

  it('cold-start-storm: a new replica serves nothing until it is ready, then serves', () => {
    const seen = new Map<string, { before: number; after: number; unavailable: number }>();
    let starting = 0;
    const sim = run(scenarioByName('cold-start-storm'), 30, 15, (_t, m, s) => {
      for (const r of s.fleet.replicas) {
        if (r.initial || r.component.spec.name !== 'llama-3-1-8b-instruct') continue;
        const e = seen.get(r.id) ?? { before: 0, after: 0, unavailable: 0 };
        seen.set(r.id, e);
        const x = m.get(`replica-${r.id}`);
        const served = total(x, 'Response_2XX_total') + total(x, 'RequestLatency_count');
        if (x === undefined) e.unavailable++;
        if (r.ready) e.after = Math.max(e.after, served);
        else e.before += served;
      }
      starting = Math.max(starting, total(m.get('platform-llama-3-1-8b-instruct'), 'llm_replicas', { state: 'starting' }));
    });
    expect(seen.size).toBeGreaterThan(0);
    for (const e of seen.values()) {
      expect(e.before).toBe(0);
      expect(e.unavailable).toBeGreaterThan(0); // no engine to scrape while the container starts and downloads
    }
    expect([...seen.values()].some((e) => e.after > 0)).toBe(true);
    expect(starting).toBeGreaterThan(0);
    const c = sim.component('llama-3-1-8b-instruct')!;
    expect(c.platform.scaleOut).toBeGreaterThan(0);
    expect(c.platform.coldStart.count).toBeGreaterThan(0);
    expect(c.platform.coldStart.sum / c.platform.coldStart.count).toBeGreaterThan(300); // slow downloads
  });

  it('az-traffic-skew: the AZ without traffic really gets zero requests', () => {
    const counted = (m: Map<string, Scrape>, az: string): number => {
      let n = 0;
      for (const s of m.values()) {
        if (s.target.kind !== 'engine' || s.target.labels.az !== az || s.target.labels.endpoint !== 'chat-prod') continue;
        n += total(s, 'vllm:request_success_total') + total(s, 'sglang:num_requests_total');
        n += total(s, 'vllm:num_requests_running') + total(s, 'vllm:num_requests_waiting') + total(s, 'sglang:num_running_reqs') + total(s, 'sglang:num_queue_reqs');
      }
      return n;
    };
    const at = new Map<number, Map<string, Scrape>>();
    run(scenarioByName('az-traffic-skew'), 20, 60, (t, m) => at.set((t - T0) / MIN, m), (t) => t.kind === 'engine');
    // In-flight requests finish within a few minutes of the fault's start at minute 5.
    expect(counted(at.get(19)!, 'us-east-1a')).toBe(counted(at.get(9)!, 'us-east-1a'));
    expect(counted(at.get(19)!, 'us-east-1b')).toBeGreaterThan(counted(at.get(9)!, 'us-east-1b') + 100);
    expect(counted(at.get(4)!, 'us-east-1a')).toBeGreaterThan(100);
  });

  it('counters never decrease except when the process restarts', () => {
    const prev = new Map<string, { value: number; restarts: number }>();
    let resets = 0;
    let checked = 0;
    run(scenarioByName('gpu-memory-saturation'), 24, 15, (_t, m) => {
      for (const s of m.values()) {
        const restarts = s.target.replica?.restarts ?? 0;
        const counterFamilies = new Set(s.families.filter((f) => f.type === 'counter' || f.type === 'histogram').map((f) => f.name));
        for (const x of s.samples) {
          const fam = [...counterFamilies].find((f) => x.name === f || x.name.startsWith(`${f}_`));
          if (fam === undefined) continue;
          const key = `${s.target.id}|${x.labels.key()}`;
          const p = prev.get(key);
          if (p !== undefined) {
            checked++;
            if (x.value < p.value) {
              expect(restarts).toBeGreaterThan(p.restarts);
              resets++;
            }
          }
          prev.set(key, { value: x.value, restarts });
        }
      }
    });
    expect(checked).toBeGreaterThan(10_000);
    expect(resets).toBeGreaterThan(0);
  });
});

