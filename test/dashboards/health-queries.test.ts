// The fleet-health queries of the Insights dashboard on small hand-written fleets (promqltest
// `load` notation, evaluated by the embedded engine): the error share over every engine of an
// instance, the lifecycle counts (starting, down, idle) and the AZ table's "up, no traffic" flag
// per deployment. It lives in test/ because src/dashboards may not import promql.
import { describe, expect, it } from 'vitest';
import { INSIGHTS, builtinIntervals, dashboardPanels, defaultValues, interpolate, type VariableValues } from '../../src/dashboards/index.js';
import { darkDeployments } from '../../src/dashboards/insights-traffic.js';
import { downReplicas, engineErrorRatio, idleInstances, startingReplicas } from '../../src/dashboards/insights-fleet.js';
import { Engine, EngineQueryClient } from '../../src/promql/index.js';
import { MemoryStorage, TEST_ENGINE_SETTINGS, parseScript, type LoadCommand } from '../../src/promql/promqltest/index.js';
import { applyLoad } from '../../src/promql/promqltest/load.js';

const EVAL_MS = 10 * 60_000;

/** Runs `expr` (with the dashboard's defaults filled in, or `values`) at minute 10 over the series of `load` (15 s apart). */
async function query(load: string, expr: string, values: VariableValues = defaultValues(INSIGHTS)): Promise<Record<string, number>> {
  const storage = new MemoryStorage();
  const [cmd] = parseScript('health', `load 15s\n${load.trim().replace(/^\s*/gm, '  ')}`).commands;
  applyLoad(storage, cmd as LoadCommand);
  const client = new EngineQueryClient({ engine: new Engine(TEST_ENGINE_SETTINGS), queryable: storage });
  const text = interpolate(expr, values, { variables: INSIGHTS.variables, ...builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 }) });
  const r = await client.instant(text, EVAL_MS);
  if (r.data.resultType !== 'vector') throw new Error(`${text}: ${r.data.resultType}`);
  const key = (m: Readonly<Record<string, string>>): string =>
    Object.entries(m)
      .filter(([k]) => k !== '__name__')
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
  return Object.fromEntries(r.data.result.map((s) => [key(s.metric), Number(s.value[1])]));
}

// Per 15 s: vLLM answers 10 requests over HTTP (none 5xx) and finishes 10; SGLang finishes 10 and
// aborts 2 (it has no HTTP counter). Over both engines of i1: 2 of 20 = 10 %.
const BOTH_ENGINES = `
  llm_http_responses_total{instance="i1", engine="vllm", status_class="2xx"} 0+10x60
  llm_e2e_request_latency_seconds_count{instance="i1", engine="vllm"} 0+10x60
  llm_e2e_request_latency_seconds_count{instance="i1", engine="sglang"} 0+10x60
  llm_requests_aborted_total{instance="i1", engine="sglang"} 0+2x60
  llm_http_responses_total{instance="i2", engine="vllm", status_class="2xx"} 0+9x60
  llm_http_responses_total{instance="i2", engine="vllm", status_class="5xx"} 0+1x60
  llm_e2e_request_latency_seconds_count{instance="i2", engine="vllm"} 0+9x60
  llm_e2e_request_latency_seconds_count{instance="i3", engine="sglang"} 0+10x60
`;

describe('error share', () => {
  it('counts every engine of an instance: SGLang aborts are not hidden behind vLLM zero 5xx', async () => {
    const got = await query(BOTH_ENGINES, engineErrorRatio(['instance']));
    expect(Object.keys(got).sort()).toEqual(['instance=i1', 'instance=i2', 'instance=i3']);
    expect(got['instance=i1']).toBeCloseTo(2 / 20);
    expect(got['instance=i2']).toBeCloseTo(1 / 10);
    expect(got['instance=i3']).toBe(0); // SGLang without aborts: its requests count, its errors are 0
  });

  it('is the hex grid field that a health rule reads', () => {
    const grid = dashboardPanels(INSIGHTS).find((p) => p.hexgrid !== undefined)!;
    expect(grid.queries.find((q) => q.refId === 'error_ratio')?.expr).toBe(engineErrorRatio(['instance']));
    expect(grid.hexgrid!.health.map((h) => h.refId)).toContain('error_ratio');
  });
});

// i1: a replica in its cold start (vLLM answers 503: up 0) and a serving one; i2: a replica that
// crashed (up 0, the platform says ready: unreachable) and a DJL one that restarts after a crash
// (it serves metrics while loading: up 1); i3: a replica up 0 on a platform without the state
// gauge; i4: a host exporter and no engine (idle); i5: a DJL replica in its cold start, up 1;
// i6: a replica ready for the last two scrapes whose engine target still reads up 0 (scrape skew);
// i7: a serving replica whose last scrape timed out (one failed scrape is not a dead engine).
const LIFECYCLE = `
  up{job="vllm", instance="i1", replica="r1", az="a"} 0x60
  up{job="sglang", instance="i1", replica="r2", az="a"} 1x60
  up{job="vllm", instance="i2", replica="r3", az="a"} 0x60
  up{job="djl-lmi", instance="i2", replica="r4", az="a"} 1x60
  up{job="vllm", instance="i3", replica="r5", az="b"} 0x60
  up{job="dcgm-exporter", instance="i4", az="b"} 1x60
  up{job="dcgm-exporter", instance="i1", az="a"} 1x60
  up{job="djl-lmi", instance="i5", replica="r6", az="b"} 1x60
  llm_replica_state{replica="r1", state="starting"} 1x60
  llm_replica_state{replica="r1", state="ready"} 0x60
  llm_replica_state{replica="r2", state="ready"} 1x60
  llm_replica_state{replica="r3", state="ready"} 1x60
  llm_replica_state{replica="r4", state="restarting"} 1x60
  llm_replica_state{replica="r4", state="starting"} 0x60
  llm_replica_state{replica="r6", state="pending"} 0x60
  llm_replica_state{replica="r6", state="starting"} 1x60
  up{job="vllm", instance="i6", replica="r7", az="b"} 0x60
  llm_replica_state{replica="r7", state="starting"} 1x38 0x21
  llm_replica_state{replica="r7", state="ready"} 0x38 1x21
  up{job="sglang", instance="i7", replica="r8", az="b"} 1x39 0 1x20
  llm_replica_state{replica="r8", state="ready"} 1x60
`;

describe('lifecycle', () => {
  it('gives every instance a row in the instance table, those serving nothing at 0 requests/s', async () => {
    const table = dashboardPanels(INSIGHTS).find((p) => p.id === 'instance-table')!;
    const rows = await query(LIFECYCLE, table.queries[0].expr);
    expect(Object.keys(rows).map((k) => /instance=(i\d)/.exec(k)?.[1]).sort()).toEqual(['i1', 'i2', 'i3', 'i4', 'i5', 'i6', 'i7']);
    expect(Object.values(rows).every((v) => v === 0)).toBe(true);
    expect(table.healthColumn?.lifecycle).toEqual(dashboardPanels(INSIGHTS).find((p) => p.hexgrid !== undefined)?.hexgrid?.lifecycle);
  });

  it.each([
    ['starting: a cold start, whether the engine answers yet or not', startingReplicas(), { 'instance=i1': 1, 'instance=i5': 1 }],
    ['down: unreachable without a recent cold start, or restarting after a crash', downReplicas(), { 'instance=i2': 2, 'instance=i3': 1 }],
    ['idle: a host exporter and no engine', idleInstances(), { 'instance=i4': 1 }],
  ])('%s', async (_name, expr, want) => {
    expect(await query(LIFECYCLE, expr)).toEqual(want);
  });
});

// us-east-1a: chat-prod has engines up and no requests (the router skips the AZ) while llama-prod
// serves there, so the AZ as a whole has traffic; us-east-1b: both serve.
const SHARED_AZ = `
  up{instance="c1", replica="g1", endpoint="chat-prod", component="gpt", az="us-east-1a"} 1x60
  up{instance="l1", replica="l1", endpoint="llama-prod", component="llama", az="us-east-1a"} 1x60
  up{instance="c2", replica="g2", endpoint="chat-prod", component="gpt", az="us-east-1b"} 1x60
  up{instance="l2", replica="l2", endpoint="llama-prod", component="llama", az="us-east-1b"} 1x60
  llm_e2e_request_latency_seconds_count{instance="c1", endpoint="chat-prod", component="gpt", az="us-east-1a", engine="vllm"} 0x60
  llm_e2e_request_latency_seconds_count{instance="l1", endpoint="llama-prod", component="llama", az="us-east-1a", engine="djl"} 0+5x60
  llm_e2e_request_latency_seconds_count{instance="c2", endpoint="chat-prod", component="gpt", az="us-east-1b", engine="vllm"} 0+5x60
  llm_e2e_request_latency_seconds_count{instance="l2", endpoint="llama-prod", component="llama", az="us-east-1b", engine="djl"} 0+5x60
`;

describe('AZ traffic: up, no traffic', () => {
  it("flags one endpoint's dark AZ although another endpoint serves the same AZ", async () => {
    expect(await query(SHARED_AZ, darkDeployments)).toEqual({ 'az=us-east-1a,component=gpt,endpoint=chat-prod': 1 });
  });

  it('is the AZ table column the panel reads', () => {
    const table = dashboardPanels(INSIGHTS).find((p) => p.id === 'az-traffic')!;
    expect(table.queries.find((q) => q.refId === 'dark')?.expr).toBe(darkDeployments);
  });
});
