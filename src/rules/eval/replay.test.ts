import { describe, expect, test } from 'vitest';
import { RecordingAppendable, ScriptedQueryClient, groupSpec, recordingSpec, vectorResult } from '../testing/index.js';
import { runRulesOver } from './replay.js';
import { evalTimestampMs } from './schedule.js';

const FROM = Date.UTC(2025, 0, 6, 9, 0, 0);
const I = 60_000;

function setup() {
  const seen: string[] = [];
  const client = new ScriptedQueryClient((q, t) => {
    seen.push(`${q}@${t}`);
    return vectorResult(t, [[{}, 1]]);
  });
  return { seen, client, appendable: new RecordingAppendable() };
}

describe('runRulesOver', () => {
  test('live alignment: each group at its own ticks in [from, to], all groups merged in time order', async () => {
    const s = setup();
    const groups = [groupSpec('a', [recordingSpec('ra', 'qa')]), groupSpec('b', [recordingSpec('rb', 'qb')], { intervalMs: 2 * I })];
    const res = await runRulesOver(groups, FROM, FROM + 5 * I, { query: s.client, appendable: s.appendable, evaluationIntervalMs: I });
    const ticks = (name: string, interval: number): number[] => {
      let t = evalTimestampMs('rules.yml', name, interval, FROM);
      if (t < FROM) t += interval;
      const out: number[] = [];
      for (; t <= FROM + 5 * I; t += interval) out.push(t);
      return out;
    };
    const want = [...ticks('a', I).map((t) => ({ t, q: 'qa' })), ...ticks('b', 2 * I).map((t) => ({ t, q: 'qb' }))].sort((x, y) => x.t - y.t || (x.q < y.q ? -1 : 1));
    expect(s.seen).toEqual(want.map((w) => `${w.q}@${w.t}`));
    expect(res.evaluations).toBe(want.length);
  });

  test("'from' alignment ticks at from + k × interval, inclusive of to", async () => {
    const s = setup();
    const res = await runRulesOver([groupSpec('a', [recordingSpec('ra', 'qa')])], FROM, FROM + 3 * I, { query: s.client, appendable: s.appendable, evaluationIntervalMs: I, align: 'from' });
    expect(s.seen).toEqual([0, 1, 2, 3].map((k) => `qa@${FROM + k * I}`));
    expect(res.snapshot.groups[0].metrics.iterationsScheduled).toBe(4);
    expect(s.appendable.of('ra').map((x) => x[0])).toEqual([0, 1, 2, 3].map((k) => FROM + k * I));
  });
});
