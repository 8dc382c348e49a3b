/**
 * The rules engine in the built `infersight serve`, whole process: rule files from
 * `--config.file` evaluated over remote-written data and shown by `/api/v1/rules`, `/api/v1/alerts`
 * and `/api/v1/alertmanagers`; reloads by SIGHUP and `POST /-/reload`, a broken file keeping the
 * last good rules running; a group too slow for its interval; and a pending alert's `activeAt`
 * kept across a kill -9 (the `ALERTS_FOR_STATE` restore). Every wait polls; nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { waitFor } from '../peers/peers.js';
import { runCli } from './cli.js';
import { pushRemoteWriteSeries } from './federate-data.js';
import { NEVER, alerts, apiData, ruleGroups, rulesByName, rulesDir, serveRules, type ApiRule } from './rules-serve-lib.js';

const cleanups = useCleanups();

const RULES = `groups:
  - name: rec
    rules:
      - record: job:up:sum
        expr: sum by (job) (up)
  - name: alerts
    rules:
      - alert: InstanceDown
        expr: up == 0
        labels: { severity: page }
        annotations: { summary: '{{ $labels.instance }} is down' }
      - alert: SlowBurn
        expr: up == 0
        for: 1h
`;

/** One sample of `up` per instance at `tMs`: `a` is down, `b` is up. */
const upSeries = (tMs: number) =>
  (['a', 'b'] as const).map((instance) => ({
    labels: [
      ['__name__', 'up'],
      ['instance', instance],
      ['job', 'vllm'],
    ] as [string, string][],
    samples: [{ tMs, value: instance === 'a' ? 0 : 1 }],
  }));

/** Waits until every rule of `base` has been evaluated with health ok (after `after`, an ISO time, when given). */
function allEvaluatedOk(base: string, after = NEVER): Promise<Map<string, ApiRule>> {
  // Compared as times: the API may write nanoseconds, which do not sort as strings.
  return waitFor('every rule evaluated with health ok', async () => {
    const rules = await rulesByName(base);
    return rules.size > 0 && [...rules.values()].every((r) => r.health === 'ok' && Date.parse(r.lastEvaluation) > Date.parse(after)) ? rules : undefined;
  });
}

describe('infersight serve: rules (whole process)', () => {
  it('lists the rule file, evaluates it over remote-written data, and answers the three APIs', async () => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    await pushRemoteWriteSeries(cli.base, upSeries(Date.now()));
    const rules = await allEvaluatedOk(cli.base);
    // Prometheus orders groups by file, then name.
    expect([...rules.keys()]).toEqual(['alerts/InstanceDown', 'alerts/SlowBurn', 'rec/job:up:sum']);
    const groups = await ruleGroups(cli.base);
    expect(groups.map((g) => [g.name, g.file, g.interval])).toEqual([
      ['alerts', d.ruleFile, 1],
      ['rec', d.ruleFile, 1],
    ]);
    // The recording rule's output is in the store.
    await waitFor('job:up:sum recorded', async () => {
      const r = await apiData<{ result: { value: [number, string] }[] }>(cli.base, '/api/v1/query?query=job:up:sum');
      return r.result[0]?.value[1] === '1' ? true : undefined;
    });
    await waitFor('InstanceDown firing, SlowBurn pending', async () => {
      const a = await alerts(cli.base);
      const states = a.map((x) => `${x.labels.alertname}:${x.labels.instance}:${x.state}`).sort();
      return states.join(',') === 'InstanceDown:a:firing,SlowBurn:a:pending' ? a : undefined;
    });
    const firing = (await alerts(cli.base)).find((a) => a.labels.alertname === 'InstanceDown');
    expect(firing?.labels).toEqual({ alertname: 'InstanceDown', instance: 'a', job: 'vllm', severity: 'page' });
    expect(firing?.value).toBe('0e+00');
  });

  // Prometheus 2.42 keeps every group, emptied of the rules the filter drops.
  it.each([
    ['?type=alert', ['alerts:InstanceDown,SlowBurn', 'rec:']],
    ['?type=ALERT', ['alerts:InstanceDown,SlowBurn', 'rec:']],
    ['?type=record', ['alerts:', 'rec:job:up:sum']],
    ['', ['alerts:InstanceDown,SlowBurn', 'rec:job:up:sum']],
  ])('filters /api/v1/rules%s', async (query, groups) => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    expect((await ruleGroups(cli.base, query)).map((g) => `${g.name}:${g.rules.map((r) => r.name).join(',')}`)).toEqual(groups);
  });

  it('answers type=bogus with 400 bad_data, and no Alertmanagers without an alerting section', async () => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    const res = await fetch(`${cli.base}/api/v1/rules?type=bogus`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', errorType: 'bad_data', error: 'invalid parameter "type": not supported value "bogus"' });
    expect(await apiData(cli.base, '/api/v1/alertmanagers')).toEqual({ activeAlertmanagers: [], droppedAlertmanagers: [] });
  });

  it('reloads the rule file on SIGHUP and on POST /-/reload', async () => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    await allEvaluatedOk(cli.base);
    d.writeRules(RULES.replace('job:up:sum', 'job:up:sighup'));
    cli.child.kill('SIGHUP');
    await waitFor('the SIGHUP-loaded rule', async () => ((await rulesByName(cli.base)).has('rec/job:up:sighup') ? true : undefined));
    d.writeRules(RULES.replace('job:up:sum', 'job:up:post'));
    const res = await fetch(`${cli.base}/-/reload`, { method: 'POST' });
    expect(res.status).toBe(200);
    // The POST answers once the reload is done: no polling needed.
    expect([...(await rulesByName(cli.base)).keys()]).toEqual(['alerts/InstanceDown', 'alerts/SlowBurn', 'rec/job:up:post']);
  });

  it('applies a changed global evaluation_interval on reload, as Prometheus does', async () => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    expect((await ruleGroups(cli.base)).map((g) => g.interval)).toEqual([1, 1]);
    d.writeConfig(['global:', '  evaluation_interval: 2s', '  rule_query_offset: 1s', 'rule_files: [rules.yml]', ''].join('\n'));
    expect((await fetch(`${cli.base}/-/reload`, { method: 'POST' })).status).toBe(200);
    expect((await ruleGroups(cli.base)).map((g) => g.interval)).toEqual([2, 2]);
  });

  // promtool 2.42's messages (checked against it): line:column for PromQL, the line for YAML types.
  it.each([
    ['bad PromQL', RULES.replace('sum by (job) (up)', 'sum by (job) (up'), 'rules.yml: 5:15: group "rec", rule 1, "job:up:sum": could not parse expression: 1:17: parse error: unclosed left parenthesis\n'],
    ['a wrong type', RULES.replace('for: 1h', 'for: [1h]'), 'rules.yml: yaml: unmarshal errors:\n  line 14: cannot unmarshal !!seq into string\n'],
    ['a template error', RULES.replace('{{ $labels.instance }}', '{{ $labels.instance'), 'rules.yml: group "alerts", rule 1, "InstanceDown": annotation "summary": template: __alert_InstanceDown:1: function "is" not defined\n'],
  ])('keeps the last good rules when a reload finds %s', async (_what, broken, message) => {
    const d = rulesDir(cleanups, RULES);
    const cli = await serveRules(cleanups, d);
    const before = await allEvaluatedOk(cli.base);
    d.writeRules(broken);
    const res = await fetch(`${cli.base}/-/reload`, { method: 'POST' });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).toBe(`failed to reload config: ${d.dir}/${message}`);
    // SIGHUP logs the same and keeps running.
    cli.child.kill('SIGHUP');
    await waitFor('the SIGHUP reload error logged', async () => (cli.log.filter((l) => l.includes('reloading the configuration failed')).length >= 2 ? true : undefined));
    // The old rules are still there and still evaluated: every lastEvaluation moves on.
    const last = Math.max(...[...before.values()].map((r) => Date.parse(r.lastEvaluation)));
    const after = await allEvaluatedOk(cli.base, new Date(last).toISOString());
    expect([...after.keys()]).toEqual([...before.keys()]);
  });

  it('exits non-zero and says why when the rule file is broken at start', async () => {
    const d = rulesDir(cleanups, RULES.replace('sum by (job) (up)', 'sum by (job) (up'));
    const { code, stderr } = await runCli(['serve', '--listen', '127.0.0.1:0', '--data', `${d.dir}/data`, '--config.file', d.configFile]);
    // One line, no stack trace.
    expect(stderr).toBe(`infersight: ${d.dir}/rules.yml: 5:15: group "rec", rule 1, "job:up:sum": could not parse expression: 1:17: parse error: unclosed left parenthesis\n`);
    expect(code).toBe(1);
  });

  it('counts a group that never finishes within its interval, while other groups and /-/healthy keep answering', async () => {
    // Each evaluation would run ~200 million inner steps (about 8 s here) against a 1 s interval;
    // the engine yields between steps, so the deadline (the next tick) can abort it.
    const slow = 'sum_over_time(sum_over_time(vector(time())[10s:1ms])[6h:1s])';
    const d = rulesDir(cleanups, `groups:
  - name: slow
    interval: 1s
    rules:
      - record: slow:sum
        expr: ${slow}
  - name: fast
    interval: 1s
    rules:
      - record: fast:one
        expr: vector(1)
`);
    const cli = await serveRules(cleanups, d);
    const group = `rule_group="${d.ruleFile};slow"`;
    const counter = (metrics: string, name: string): number => Number(new RegExp(`^${name}\\{${group}\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 'NaN');
    const metrics = await waitFor('the slow group past its deadline twice', async () => {
      const m = await (await fetch(`${cli.base}/metrics`)).text();
      return counter(m, 'infersight_rule_group_deadline_exceeded_total') >= 2 ? m : undefined;
    });
    expect(counter(metrics, 'infersight_rule_group_iterations_total')).toBeGreaterThanOrEqual(2);
    expect(counter(metrics, 'infersight_rule_evaluation_failures_total')).toBeGreaterThanOrEqual(2);
    // Aborted at the next tick, the group normally skips none; the counter is there (a loaded machine may miss one).
    expect(counter(metrics, 'infersight_rule_group_iterations_missed_total')).toBeGreaterThanOrEqual(0);
    expect(counter(metrics, 'infersight_rule_group_interval_seconds')).toBe(1);
    const slowRule = (await rulesByName(cli.base)).get('slow/slow:sum');
    expect(slowRule?.health).toBe('err');
    expect(slowRule?.lastError).toMatch(/^evaluation of group "slow" at \d+ passed its deadline \(the next tick, 1000 ms later\)$/);
    // Meanwhile the fast group goes on, and the server answers.
    const fastBefore = (await rulesByName(cli.base)).get('fast/fast:one');
    expect(fastBefore?.health).toBe('ok');
    await waitFor('the fast group evaluated again', async () => {
      const now = (await rulesByName(cli.base)).get('fast/fast:one');
      return now !== undefined && Date.parse(now.lastEvaluation) > Date.parse(fastBefore?.lastEvaluation ?? NEVER) ? true : undefined;
    });
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
  });

  it('keeps a pending alert pending from its old activeAt across a kill -9 and a restart', async () => {
    const d = rulesDir(cleanups, RULES);
    const data = `${d.dir}/data`;
    const first = await serveRules(cleanups, d, data);
    await pushRemoteWriteSeries(first.base, upSeries(Date.now()));
    const pendingSince = async (base: string): Promise<number | undefined> => {
      const a = (await alerts(base)).find((x) => x.labels.alertname === 'SlowBurn' && x.state === 'pending');
      return a === undefined ? undefined : Date.parse(a.activeAt);
    };
    const activeAt = await waitFor('SlowBurn pending', () => pendingSince(first.base));
    // Let its ALERTS_FOR_STATE series run on for a while: the restore moves activeAt on by the
    // time between the last sample and the restore, so a few seconds of it tell a restored
    // alert from one that started again after the restart.
    await waitFor('ALERTS_FOR_STATE written 6 s after activeAt', async () => {
      const r = await apiData<{ result: { value: [number, string] }[] }>(first.base, '/api/v1/query?query=timestamp(ALERTS_FOR_STATE{alertname="SlowBurn"})');
      const t = r.result[0]?.value[1];
      return t !== undefined && Number(t) * 1000 - activeAt >= 6000 ? true : undefined;
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serveRules(cleanups, d, data);
    const readyAt = Date.now();
    // The restored activeAt: kept (moved on by the downtime, about 2 s here), not the restart's;
    // an alert that started again would be active from after readyAt.
    const restored = await waitFor('SlowBurn pending again, restored', async () => {
      const t = await pendingSince(second.base);
      const rule = (await rulesByName(second.base)).get('alerts/SlowBurn');
      // Restoring happens at the rule's second evaluation after the start.
      return t !== undefined && rule !== undefined && t < readyAt - 2000 ? t : undefined;
    });
    expect(restored).toBeGreaterThanOrEqual(Math.trunc(activeAt / 1000) * 1000);
  });
});
