// After normalization the store holds catalog names only: every series the simulated fleet
// exposes (every scenario, faults active and over) and every real exposition excerpt in
// ../shared/reference/samples/ becomes a catalog series or is left out on purpose (semconv
// DROPPED_METRICS). The few names allowed through are listed below with the reason.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Labels } from '../../src/model/index.js';
import { NormalizingAppendable } from '../../src/normalize/index.js';
import { MemoryStorage } from '../../src/storage/testing/index.js';
import { CATALOG } from '../../src/semconv/index.js';
import { SCENARIOS, Simulation, TargetRegistry, scenarioByName } from '../../src/sim/index.js';
import { parseExposition } from '../../src/wire/index.js';

/** Every series name the catalog defines (histograms by member). */
const CATALOG_SERIES = new Set(CATALOG.flatMap((m) => (m.type === 'histogram' ? ['_bucket', '_sum', '_count'].map((s) => m.name + s) : [m.name])));

/**
 * Names of the reference samples that pass unchanged on purpose. None comes from the simulator:
 * it exposes engine names only, and every one of those must map or be dropped.
 */
const ALLOWED: readonly (readonly [RegExp, string])[] = [
  [/^process_/, 'the Python client library\'s process collector: the process, not the engine (every Prometheus client exposes it)'],
  [/^http_/, "generic HTTP-server instrumentation (prometheus-fastapi-instrumentator in vLLM's API server): no engine prefix, so it maps (llm_http_*) only with a hint naming vLLM, and its size histograms not at all"],
  [/^nv_inference_queue_summary_us$/, "Triton's summary quantiles: a quantile cannot join a catalog histogram (its _sum and _count do)"],
];

/** The stored names that are neither catalog names nor allowed: what leaks. */
function leaks(stored: Iterable<string>): string[] {
  return [...new Set(stored)].filter((n) => !CATALOG_SERIES.has(n) && !ALLOWED.some(([re]) => re.test(n))).sort();
}

/** Normalizes one exposition text (with `extra` target labels, as a scraper attaches them); the stored names. */
async function storedNames(text: string, extra: Readonly<Record<string, string>>): Promise<string[]> {
  const inner = new MemoryStorage();
  const app = new NormalizingAppendable(inner).appender();
  parseExposition(text, 'prometheus-0.0.4', (s) => app.append(0, Labels.from({ ...s.labels.toRecord(), ...extra }), 1, s.value));
  await app.commit();
  return [...inner.read([], 0, Infinity)].map((s) => s.labels.metricName);
}

describe('no engine-native name leaks past the catalog', () => {
  const scenarios = ['demo', ...Object.keys(SCENARIOS)];
  it.each(scenarios)('the simulated fleet, scenario %s, mid-fault and after', async (name) => {
    const sim = new Simulation({ scenario: scenarioByName(name), seed: 5, startMs: Date.UTC(2025, 0, 6, 9) });
    const stored: string[] = [];
    for (const minute of [12, 24]) {
      sim.advanceTo(sim.startMs + minute * 60_000);
      for (const t of new TargetRegistry(sim).list()) if (t.available()) stored.push(...(await storedNames(t.families().renderText(), t.labels)));
    }
    expect(stored.length).toBeGreaterThan(1000);
    expect(leaks(stored)).toEqual([]);
    // Without exceptions: the allowed names belong to real engines' neighbours, not to the simulator.
    expect([...new Set(stored)].filter((n) => !CATALOG_SERIES.has(n))).toEqual([]);
  });

  const dir = new URL('../../../shared/reference/samples/', import.meta.url);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.txt')) : [];
  describe.skipIf(files.length === 0 && process.env.CI !== 'true')('the reference samples (skipped when absent outside CI)', () => {
    const seen = new Set<string>();
    it.each(files)('%s, with and without a job hint', async (file) => {
      const text = readFileSync(new URL(file, dir), 'utf8');
      const job = /^(vllm|sglang|triton|dcgm)/.exec(file)?.[1] ?? '';
      const stored = [...(await storedNames(text, {})), ...(await storedNames(text, { job }))];
      stored.forEach((n) => seen.add(n));
      expect(leaks(stored)).toEqual([]);
    });

    it('every allowed exception is still needed', () => {
      for (const [re, why] of ALLOWED) expect([...seen].some((n) => re.test(n)), `${re.source}: ${why}`).toBe(true);
    });
  });
});
