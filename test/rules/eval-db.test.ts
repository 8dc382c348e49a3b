// Rule evaluation over the real read and write path: the embedded Db and the PromQL engine.
import { afterEach, describe, expect, test } from 'vitest';
import { FakeTimers } from '../../src/model/testing/fake-timers.js';
import type { UnixMs } from '../../src/model/index.js';
import { RuleManager, evalTimestampMs, runRulesOver, type AlertingRule } from '../../src/rules/index.js';
import { alertingSpec, groupSpec, recordingSpec } from '../../src/rules/testing/index.js';
import { formatExpr, labelsText, loadSeries, openRulesDb, type RulesDb } from './harness.js';

const M = 60_000;
let open: RulesDb[] = [];
afterEach(async () => {
  await Promise.all(open.map((d) => d.close()));
  open = [];
});

async function db(now?: () => UnixMs): Promise<RulesDb> {
  const d = await openRulesDb(now);
  open.push(d);
  return d;
}

async function instant(d: RulesDb, q: string, tMs: UnixMs): Promise<string[]> {
  const r = await d.client.instant(q, tMs);
  if (r.data.resultType !== 'vector') throw new Error(`not a vector: ${r.data.resultType}`);
  return r.data.result.map((s) => `${labelsText(s.metric)} ${s.value[1]}`).sort();
}

describe('replay over the Db', () => {
  test('recording rules aggregate, a later rule of the group sees the earlier rule at the same instant, stale markers end series', async () => {
    const d = await db();
    await loadSeries(
      d.db,
      [
        { series: 'http_requests_total{job="api",instance="a"}', values: '0+60x10' },
        { series: 'http_requests_total{job="api",instance="b"}', values: '0+120x5' },
      ],
      M,
    );
    const g = groupSpec('g', [
      recordingSpec('job:http_requests:rate1m', 'sum by (job) (rate(http_requests_total[2m]))', { source: 'rules' }),
      alertingSpec('HighRate', 'job:http_requests:rate1m > 2.5', { labels: { severity: 'page' } }),
      recordingSpec('instance:up', 'count by (instance) (http_requests_total)'),
    ]);
    const res = await runRulesOver([g], 0, 12 * M, { query: d.client, appendable: d.db, align: 'from', evaluationIntervalMs: M, formatExpr });
    expect(res.evaluations).toBe(13);
    expect(await instant(d, 'job:http_requests:rate1m', 3 * M)).toEqual(['job:http_requests:rate1m{job="api", source="rules"} 3']);
    // The alert at 3m read the recording written at 3m (3 > 2.5), not the one from 2m.
    expect(await instant(d, 'ALERTS', 3 * M)).toEqual(['ALERTS{alertname="HighRate", alertstate="firing", job="api", severity="page", source="rules"} 1']);
    expect(await instant(d, 'ALERTS', 8 * M)).toEqual([]);
    // Instance b has no samples after 5m; 5m of lookback later its count is gone and marked stale at once.
    expect(await instant(d, 'instance:up', 9 * M)).toEqual(['instance:up{instance="a"} 1', 'instance:up{instance="b"} 1']);
    expect(await instant(d, 'instance:up', 11 * M)).toEqual(['instance:up{instance="a"} 1']);
    expect(res.snapshot.groups[0].rules.map((r) => r.query)).toEqual([
      'sum by (job) (rate(http_requests_total[2m]))',
      'job:http_requests:rate1m > 2.5',
      'count by (instance) (http_requests_total)',
    ]);
  });
});

describe('the live manager over the Db', () => {
  test('a restart keeps a pending alert’s for progress (restored from ALERTS_FOR_STATE through the query client)', async () => {
    const timers = new FakeTimers(Date.UTC(2025, 0, 6, 9, 0, 0));
    const d = await db(timers.clock);
    const t0 = timers.now;
    const values = Array.from({ length: 120 }, () => '1').join(' ');
    await loadSeries(d.db, [{ series: 'queue_depth{instance="a"}', values }], 30_000, t0);
    const spec = groupSpec('g', [alertingSpec('QueueStuck', 'queue_depth > 0', { forMs: 30 * M })]);
    const opts = { query: d.client, appendable: d.db, clock: timers.clock, timers, evaluationIntervalMs: M, formatExpr };
    const first = new RuleManager(opts);
    await first.update([spec]);
    first.start();
    await timers.advance(20 * M);
    const before = [...(first.ruleGroups()[0].rules[0] as AlertingRule).active.values()][0];
    expect(before.state).toBe('pending');
    const lastEvalMs = first.ruleGroups()[0].lastEvaluationMs ?? NaN;
    await first.stop();
    const activeAt = before.activeAtMs;

    await timers.advance(3 * M); // the outage
    const restoreAt = evalTimestampMs(spec.file, spec.name, M, timers.now) + 2 * M; // after the second evaluation
    const second = new RuleManager(opts);
    await second.update([spec]);
    second.start();
    await timers.advance(3 * M);
    const after = [...(second.ruleGroups()[0].rules[0] as AlertingRule).active.values()][0];
    // Restored: the old activeAt (whole seconds) shifted by the time the process was down.
    const sec = (t: number): number => Math.trunc(t / 1000) * 1000;
    expect(after.activeAtMs).toBe(sec(activeAt) + restoreAt - sec(lastEvalMs));
    expect(after.state).toBe('pending');
    // ... so it fires 30 m after it first became active, less the outage.
    await timers.advance(after.activeAtMs + 30 * M - timers.now + M);
    expect(after.state).toBe('firing');
    await second.stop();
  });

  test('an alert that resolved before the restart starts over: its ALERTS_FOR_STATE went stale', async () => {
    const timers = new FakeTimers(Date.UTC(2025, 0, 6, 9, 0, 0));
    const d = await db(timers.clock);
    const t0 = timers.now;
    const values = [...Array<string>(20).fill('1'), ...Array<string>(10).fill('0'), ...Array<string>(60).fill('1')].join(' ');
    await loadSeries(d.db, [{ series: 'queue_depth{instance="a"}', values }], 30_000, t0);
    const spec = groupSpec('g', [alertingSpec('QueueStuck', 'queue_depth > 0', { forMs: 30 * M })]);
    const opts = { query: d.client, appendable: d.db, clock: timers.clock, timers, evaluationIntervalMs: M, formatExpr };
    const first = new RuleManager(opts);
    await first.update([spec]);
    first.start();
    await timers.advance(14 * M); // pending from about 1 m, gone (stale) from 10 m
    expect((first.ruleGroups()[0].rules[0] as AlertingRule).active.size).toBe(0);
    await first.stop();
    await timers.advance(2 * M);
    const second = new RuleManager(opts);
    await second.update([spec]);
    const firstTick = evalTimestampMs(spec.file, spec.name, M, timers.now) + M;
    second.start();
    await timers.advance(3 * M);
    const after = [...(second.ruleGroups()[0].rules[0] as AlertingRule).active.values()][0];
    expect(after.activeAtMs).toBe(firstTick);
    await second.stop();
  });
});
