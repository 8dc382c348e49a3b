import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation } from './simulation.js';
import { SCENARIO_LIMITS, ScenarioFileError, parseScenarioSpec } from './spec-parse.js';

const EXAMPLE = new URL('../../docs/examples/scenario.json', import.meta.url);

// Hostile edits reach anywhere in the document, whatever its shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

/** A minimal valid file, with `patch` applied to a fresh copy. */
function file(patch: (s: Doc) => void = () => undefined): string {
  const s: Doc = {
    name: 'small',
    fleet: {
      endpoints: [
        {
          name: 'ep',
          instanceType: 'ml.g6.xlarge',
          instances: { initial: 1, max: 2 },
          azs: ['az-a'],
          components: [{ name: 'c', model: 'meta-llama/Llama-3.1-8B-Instruct', engine: 'vllm', copies: { initial: 1, min: 1, max: 2 }, load: { ratePerSec: 1, prompt: { kind: 'fixed', value: 100 }, output: { kind: 'fixed', value: 50 } } }],
        },
      ],
    },
    faults: [{ kind: 'slow-instance', startMs: '5m', endMs: '10m', scope: { instance: 'ep-i1' } }],
  };
  patch(s);
  return JSON.stringify(s);
}

describe('parseScenarioSpec', () => {
  it('loads docs/examples/scenario.json, and the simulation runs it', () => {
    const spec = parseScenarioSpec(readFileSync(EXAMPLE, 'utf8'));
    expect(spec.name).toBe('two-zone-chat');
    expect(spec.faults.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['slow-instance', 30 * 60_000, 45 * 60_000],
      ['kv-cache-pressure', 80 * 60_000, 100 * 60_000],
    ]);
    const sim = new Simulation({ scenario: spec, seed: 1, startMs: 0 });
    sim.advanceTo(600_000);
    expect(sim.fleet.replicas.length).toBeGreaterThanOrEqual(4);
    expect(sim.groundTruth().map((g) => g.virtualStartMs)).toEqual([30 * 60_000, 80 * 60_000]);
  });

  it('fills the defaults and accepts durations as milliseconds or strings', () => {
    const s = parseScenarioSpec(file((x) => delete x.name), 'from-file');
    expect(s).toMatchObject({ name: 'from-file', description: '', durationMs: 86_400_000 });
    expect(s.faults[0]).toMatchObject({ startMs: 300_000, endMs: 600_000 });
    expect(s.fleet.endpoints[0].components[0]).toMatchObject({ gpusPerCopy: 1, maxModelLen: 16_384 });
    expect(parseScenarioSpec(file((x) => (x.faults[0].startMs = 1000))).faults[0].startMs).toBe(1000);
  });

  // Each hostile or mistaken file fails with an error that names the field.
  it.each([
    ['not JSON', () => '{"name": ', /^not JSON: /],
    ['not an object', () => '[1, 2]', /^: want an object, got \[1,2\]/],
    ['no fleet', () => '{}', /^fleet: missing/],
    ['an unknown top-level field', () => file((s) => (s.flet = {})), /^flet: unknown field/],
    ['a typo in a load field', () => file((s) => (s.fleet.endpoints[0].components[0].load.ratePerSecond = 2)), /^fleet\.endpoints\[0\]\.components\[0\]\.load\.ratePerSecond: unknown field/],
    ['a rate as a string', () => file((s) => (s.fleet.endpoints[0].components[0].load.ratePerSec = '5')), /^fleet\.endpoints\[0\]\.components\[0\]\.load\.ratePerSec: want a number from 0 to 1000, got "5"/],
    ['a negative rate', () => file((s) => (s.fleet.endpoints[0].components[0].load.ratePerSec = -1)), /load\.ratePerSec: want a number/],
    ['an unknown fault kind', () => file((s) => (s.faults[0].kind = 'meteor-strike')), /^faults\[0\]\.kind: want one of kv-cache-pressure, /],
    ['a negative fault start', () => file((s) => (s.faults[0].startMs = -60_000)), /^faults\[0\]\.startMs: want an integer from 0 to/],
    ['a bad duration string', () => file((s) => (s.faults[0].endMs = '10 minutes')), /^faults\[0\]\.endMs: want an integer/],
    ['an end before the start', () => file((s) => (s.faults[0].endMs = '1m')), /^faults\[0\]\.endMs: want an integer from 300001/],
    ['a scope naming no component', () => file((s) => (s.faults[0].scope = { component: 'nope' })), /^faults\[0\]\.scope\.component: want one of c, got "nope"/],
    ['an unknown fault parameter', () => file((s) => (s.faults[0].params = { slowdwn: 3 })), /^faults\[0\]\.params\.slowdwn: unknown field \(known: slowdown\)/],
    ['an unknown model', () => file((s) => (s.fleet.endpoints[0].components[0].model = 'gpt-5')), /components\[0\]\.model: want one of /],
    ['an unknown instance type', () => file((s) => (s.fleet.endpoints[0].instanceType = 'm5.large')), /^fleet\.endpoints\[0\]\.instanceType: want one of /],
    ['an unknown engine', () => file((s) => (s.fleet.endpoints[0].components[0].engine = 'tgi')), /components\[0\]\.engine: want one of vllm, sglang, djl/],
    ['more GPUs per copy than the instance has', () => file((s) => (s.fleet.endpoints[0].components[0].gpusPerCopy = 2)), /components\[0\]\.gpusPerCopy: want an integer from 1 to 1/],
    ['a model too big for its GPU', () => file((s) => (s.fleet.endpoints[0].components[0].model = 'meta-llama/Llama-3.1-70B-Instruct')), /components\[0\]\.gpusPerCopy: .* does not fit on 1 NVIDIA L4/],
    ['copies.initial above copies.max', () => file((s) => (s.fleet.endpoints[0].components[0].copies.initial = 3)), /copies\.initial: want an integer from 1 to 2, got 3/],
    ['a fleet beyond the bound', () => file((s) => (s.fleet.endpoints[0].instances.max = SCENARIO_LIMITS.maxInstances + 1)), /^fleet\.endpoints\[0\]\.instances\.max: want an integer from 1 to 5000/],
    [
      'many endpoints beyond the bound together',
      () => file((s) => (s.fleet.endpoints = Array.from({ length: 3 }, (_, i) => ({ ...s.fleet.endpoints[0], name: `ep${i}`, components: [{ ...s.fleet.endpoints[0].components[0], name: `c${i}` }], instances: { initial: 1, max: 2000 } })))),
      /^fleet\.endpoints\[\]\.instances\.max: want at most 5000 instances in all, got 6000/,
    ],
    ['a name with a slash', () => file((s) => (s.fleet.endpoints[0].name = 'a/b')), /^fleet\.endpoints\[0\]\.name: want a name of letters/],
    ['two components of one name', () => file((s) => s.fleet.endpoints[0].components.push(s.fleet.endpoints[0].components[0])), /the name "c" is used twice/],
    ['an empty zone list', () => file((s) => (s.fleet.endpoints[0].azs = [])), /^fleet\.endpoints\[0\]\.azs: want an array of 1 to 16 entries, got "0 entries"/],
    ['lengths that are not an object', () => file((s) => (s.fleet.endpoints[0].components[0].load.prompt = 100)), /load\.prompt: want an object, got 100/],
    ['a file over the size bound', () => ' '.repeat(SCENARIO_LIMITS.maxFileBytes + 1), /larger than/],
  ])('refuses %s', (_name, text, want) => {
    expect(() => parseScenarioSpec(text())).toThrow(ScenarioFileError);
    expect(() => parseScenarioSpec(text())).toThrow(want);
  });
});
