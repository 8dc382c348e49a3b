// The pack's recording rules for the Insights panels each record series on the demo fleet (a rule
// that records nothing there reads a name or label that does not exist).
import { describe, expect, it } from 'vitest';
import { rulePack } from '../../src/rules/index.js';
import { runPackScenario } from './pack-harness.js';

describe('the Insights recording rules', () => {
  it('each record series on the demo fleet', async () => {
    const insights = rulePack().groups.filter((g) => g.name === 'llm-pack:insights');
    expect(insights).toHaveLength(1);
    // src/cost writes the benchmark series the efficiency record divides by, as the server runs it.
    const state = await runPackScenario({ groups: insights, scenario: 'demo', durationMs: 15 * 60_000, cost: true });
    expect(state.errors).toEqual([]);
    const empty = insights[0].rules.flatMap((r) => (r.kind === 'recording' && (state.recorded.get(r.record) ?? 0) === 0 ? [r.record] : []));
    expect(empty).toEqual([]);
  }, 300_000);
});
