// The default rule pack stays quiet on the steady demo fleet for a simulated day: the `demo`
// scenario (its two-hour diurnal cycle, so a day holds twelve peaks and troughs, with bursts,
// autoscaling and cold starts), no faults, every alert group evaluated live. A day is affordable
// with 60 s scrapes and a 60 s evaluation interval (the `for` clauses are minutes, the SLO windows
// up to a day and the period group every 5 min); it takes a few minutes of CPU.
import { describe, expect, it } from 'vitest';
import { rulePack } from '../../src/rules/index.js';
import { runPackScenario } from './pack-harness.js';

const DAY_MS = 24 * 3_600_000;

describe('the rule pack on the steady fleet', () => {
  it('raises no alert over a simulated day', async () => {
    const groups = rulePack().groups.filter((g) => g.name !== 'llm-pack:insights');
    const state = await runPackScenario({ groups, scenario: 'demo', durationMs: DAY_MS });
    expect(state.errors).toEqual([]);
    expect([...state.fired.values()].map((f) => `${f.alert} ${JSON.stringify(f.labels)} at +${Math.round((f.firstFiredMs - state.startMs) / 60_000)} min (value ${f.value})`)).toEqual([]);
    // The SLO series were there all day (an empty SLI would be quiet for the wrong reason).
    expect(state.recorded.get('slo:error_budget_remaining:ratio') ?? 0).toBeGreaterThan(0);
  }, 1_800_000);
});
