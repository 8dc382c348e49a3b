import { describe, expect, it } from 'vitest';
import { crosses, DEFAULT_SYMPTOM_RULES, TPS_SYMPTOM_RULE, sloSymptom, type SymptomRule } from './symptoms.js';
import { InsightTracker, insightId, type Observation } from './tracker.js';

const TTFT = DEFAULT_SYMPTOM_RULES.find((r) => r.symptom === 'ttft') as SymptomRule;
const TPS = TPS_SYMPTOM_RULE;
const SCOPE = { endpoint: 'chat', component: 'a' };
const STEP = 15_000;

/** A TTFT observation of `value` against `baseline`; `slo` alone for a burning SLO. */
const ttft = (value: number, baseline = 0.5): Observation => ({ symptom: 'ttft', scope: SCOPE, rule: TTFT, value, baseline });
const slo: Observation = { symptom: 'ttft', scope: SCOPE, rule: null, value: null, baseline: null };

/** Steps a tracker through ticks (one observation list each) and notes each tick's opened and resolved counts and the open insight's times. */
function run(ticks: readonly (readonly Observation[])[]): string[] {
  const tracker = new InsightTracker({ openTicks: 2, resolveTicks: 2 });
  return ticks.map((obs, n) => {
    const c = tracker.step(n * STEP, obs);
    const i = c.open[0] ?? c.resolved[0];
    return `${c.opened.length}/${c.resolved.length}` + (i === undefined ? '' : ` onset=${i.onsetMs / STEP} detected=${i.detectedMs / STEP} resolved=${i.resolvedMs === null ? '-' : i.resolvedMs / STEP}`);
  });
}

describe('crosses', () => {
  it.each([
    ['above the floor and 1.5× the baseline', TTFT, 3, 1, true],
    ['above the floor, not 1.5× the baseline (a fleet whose normal is slow)', TTFT, 3, 2.5, false],
    ['1.5× the baseline, under the floor', TTFT, 0.9, 0.1, false],
    ['above the floor without a baseline', TTFT, 3, null, true],
    ['no value', TTFT, null, 1, false],
    ['throughput halved and more', TPS, 40, 100, true],
    ['throughput fell a little', TPS, 60, 100, false],
    ['throughput without a baseline', TPS, 1, null, false],
  ])('%s', (_name, rule, value, baseline, want) => {
    expect(crosses(rule, value, baseline)).toBe(want);
  });
});

describe('InsightTracker', () => {
  it.each([
    ['one crossing tick opens nothing', [[ttft(3)], [ttft(0.4)], [ttft(0.4)]], ['0/0', '0/0', '0/0']],
    [
      'two crossing ticks open, with the onset at the first; two calm ticks resolve',
      [[ttft(3)], [ttft(3)], [ttft(3)], [ttft(0.4)], [ttft(0.4)]],
      ['0/0', '1/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-', '0/1 onset=0 detected=1 resolved=4'],
    ],
    [
      'an open insight keeps its baseline: a baseline that rose with the incident does not resolve it',
      [[ttft(3)], [ttft(3)], [ttft(3, 3)], [ttft(3, 3)], [ttft(3, 3)]],
      ['0/0', '1/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-'],
    ],
    [
      'a scope that vanishes is calm',
      [[ttft(3)], [ttft(3)], [], []],
      ['0/0', '1/0 onset=0 detected=1 resolved=-', '0/0 onset=0 detected=1 resolved=-', '0/1 onset=0 detected=1 resolved=3'],
    ],
    ['a burning SLO crosses on its own', [[slo, ttft(0.4)], [slo]], ['0/0', '1/0 onset=0 detected=1 resolved=-']],
  ])('%s', (_name, ticks, want) => {
    expect(run(ticks)).toEqual(want);
  });

  it('derives the same id from the same symptom, scope and onset, and another from another onset', () => {
    expect(insightId('ttft', SCOPE, 1_736_163_000_000)).toBe(insightId('ttft', { component: 'a', endpoint: 'chat' }, 1_736_163_000_999));
    expect(insightId('ttft', SCOPE, 1_736_163_000_000)).toMatch(/^ttft-[0-9a-f]{8}-1736163000$/);
    expect(insightId('ttft', SCOPE, 1_736_163_015_000)).not.toBe(insightId('ttft', SCOPE, 1_736_163_000_000));
    expect(insightId('itl', SCOPE, 0)).not.toBe(insightId('ttft', SCOPE, 0));
  });

  it.each([
    ['ttft', 'ttft'],
    ['availability', 'errors'],
    ['throughput', undefined],
  ])('reads the SLO %s as symptom %s', (slo, want) => {
    expect(sloSymptom(slo)).toBe(want);
  });
});
