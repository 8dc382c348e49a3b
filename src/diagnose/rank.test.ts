import { describe, expect, it } from 'vitest';
import type { Finding } from './detector.js';
import { NAMED, overlaps, rank } from './rank.js';
import type { CauseId, Scope } from './types.js';

const finding = (cause: CauseId, score: number, scope: Scope, instances?: string[]): Finding => ({
  cause,
  score,
  scope,
  onsetMs: 1000,
  summary: `${cause} found.`,
  evidence: [{ query: 'x', baseline: 0, incident: 1 }],
  ...(instances === undefined ? {} : { instances }),
});

const order = (fs: Finding[]) => rank({ timeMs: 0, findings: fs, ruledOut: [], symptomLine: 'TTFT is fine.' }).causes.map((c) => `${c.cause}=${c.confidence}`);

describe('rank', () => {
  it.each<[string, Finding[], string[]]>([
    ['nothing found: none first, fully confident', [], ['none=1']],
    ['a weak finding: none first, then it', [finding('load', 0.3, { component: 'a' })], ['none=0.7', 'load=0.3']],
    ['a named cause leads', [finding('engine-errors', 0.9, { component: 'a' })], ['engine-errors=0.9']],
    [
      "an AZ skew's KV pressure on the same endpoint is its consequence",
      [finding('kv-cache-pressure', 0.9, { endpoint: 'e', component: 'a' }), finding('az-traffic-skew', 0.8, { endpoint: 'e', az: 'z' })],
      ['az-traffic-skew=0.8', 'kv-cache-pressure=0.54'],
    ],
    [
      'KV pressure on another endpoint is not discounted',
      [finding('kv-cache-pressure', 0.9, { endpoint: 'f', component: 'a' }), finding('az-traffic-skew', 0.8, { endpoint: 'e', az: 'z' })],
      ['kv-cache-pressure=0.9', 'az-traffic-skew=0.8'],
    ],
    [
      'GPU memory on the instance whose replica is under KV pressure',
      [finding('kv-cache-pressure', 1, { component: 'a' }, ['i2']), finding('gpu-memory-saturation', 1, { instance: 'i2' }, ['i2'])],
      ['gpu-memory-saturation=1', 'kv-cache-pressure=0.6'],
    ],
    [
      'in a cycle only the weaker side is discounted',
      [finding('kv-cache-pressure', 0.9, { component: 'a' }), finding('throughput-below-benchmark', 0.7, { component: 'a' })],
      ['kv-cache-pressure=0.9', 'throughput-below-benchmark=0.42'],
    ],
    [
      "one instance's outlier beats a component-wide finding of the same strength",
      [finding('engine-errors', 0.8, { component: 'a' }), finding('slow-instance', 0.8, { instance: 'i1' })],
      ['slow-instance=0.85', 'engine-errors=0.8'],
    ],
  ])('%s', (_name, fs, want) => {
    expect(order(fs)).toEqual(want);
  });

  it('keeps one entry per cause unless a second scope is as strong as a named cause', () => {
    const got = order([finding('engine-errors', 0.9, { component: 'a' }), finding('engine-errors', 0.7, { component: 'b' }), finding('engine-errors', 0.2, { component: 'c' })]);
    expect(got).toEqual(['engine-errors=0.9', 'engine-errors=0.7']);
  });

  it('rules out none when a cause is named, and lists the detectors that found nothing', () => {
    const d = rank({ timeMs: 5, findings: [finding('rate-limit-burst', 0.95, { component: 'a' })], ruledOut: [{ cause: 'quality-drift', reason: 'Scores held.' }], symptomLine: '' });
    expect(d.timeMs).toBe(5);
    expect(d.ruledOut.map((r) => r.cause).sort()).toEqual(['none', 'quality-drift']);
    expect(d.causes.every((c) => c.confidence >= 0 && c.confidence <= 1)).toBe(true);
    expect(d.causes[0].confidence).toBeGreaterThanOrEqual(NAMED);
  });

  it.each<[Scope, Scope, boolean]>([
    [{ component: 'a' }, { component: 'a', endpoint: 'e' }, true],
    [{ component: 'a' }, { component: 'b' }, false],
    [{ instance: 'i1' }, { instance: 'i2' }, false],
    [{ endpoint: 'e', az: 'z' }, { instance: 'i9' }, true],
  ])('overlaps(%j, %j) is %s', (a, b, want) => {
    expect(overlaps(finding('load', 1, a), finding('load', 1, b))).toBe(want);
  });
});
