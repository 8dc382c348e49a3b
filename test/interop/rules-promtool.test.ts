// Differential test of rule evaluation against Debian's promtool 2.42 (`promtool test rules`):
// for each case of rules-promtool-cases.ts the input series go into our Db, our evaluator runs in
// virtual time at promtool's instants (every evaluation interval from 0), and a promtool test file
// is written whose exp_samples / exp_alerts are OUR results. promtool's verdict decides; its diff
// output is parsed so each mismatch is reported with its reason.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { parseDurationMs, type UnixMs } from '../../src/model/index.js';
import { runRulesOver, type RuleGroupSpec, type RuleSpec } from '../../src/rules/index.js';
import { formatExpr, labelsText, loadSeries, openRulesDb } from '../rules/harness.js';
import { itWithPeer } from '../peers/peers.js';
import { DIFF_CASES, type DiffCase, type GroupJson } from './rules-promtool-cases.js';

const run = promisify(execFile);
const M = 60_000;

function ms(d: string | undefined): number {
  if (d === undefined) return 0;
  const v = parseDurationMs(d);
  if (v === undefined) throw new Error(`bad duration ${d}`);
  return v;
}

function toSpecs(groups: readonly GroupJson[], file: string): RuleGroupSpec[] {
  const at = { line: 1, column: 1 };
  return groups.map((g) => ({
    name: g.name,
    file,
    intervalMs: undefined,
    queryOffsetMs: undefined,
    limit: g.limit ?? 0,
    position: at,
    rules: g.rules.map(
      (r): RuleSpec =>
        r.record !== undefined
          ? { kind: 'recording', record: r.record, expr: r.expr, labels: r.labels ?? {}, position: at }
          : { kind: 'alerting', alert: r.alert ?? '', expr: r.expr, forMs: ms(r.for), keepFiringForMs: ms(r.keep_firing_for), labels: r.labels ?? {}, annotations: r.annotations ?? {}, position: at },
    ),
  }));
}

/** Go's `time.Duration.String()` for whole seconds (`0s`, `1m0s`, `1h2m0s`), as promtool prints eval errors. */
function goDuration(tMs: UnixMs): string {
  const s = Math.round(tMs / 1000);
  if (s === 0) return '0s';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${m}m${sec}s` : m > 0 ? `${m}m${sec}s` : `${sec}s`;
}

/** What we computed for a case: the promtool test file, and the eval errors promtool must print. */
interface Ours {
  readonly testFile: unknown;
  readonly errors: string[];
}

async function evaluateOurs(c: DiffCase): Promise<Ours> {
  const d = await openRulesDb();
  try {
    await loadSeries(d.db, c.series, M);
    const maxMs = Math.max(...c.minutes) * M;
    const firing = new Map<string, { exp_labels: Record<string, string>; exp_annotations: Record<string, string> }[]>();
    const errorsAt = new Map<number, string[]>();
    await runRulesOver(toSpecs(c.groups, 'rules.json'), 0, maxMs, {
      query: d.client,
      appendable: d.db,
      align: 'from',
      evaluationIntervalMs: M,
      formatExpr,
      afterEval: (g, t) => {
        for (const r of g.rules) {
          if (r.lastError !== undefined) errorsAt.set(t, [...(errorsAt.get(t) ?? []), `rule: ${r.name}, time: ${goDuration(t)}, err: ${r.lastError}`]);
          if (r.kind !== 'alerting' || !(c.alerts ?? []).includes(r.name)) continue;
          const list = r
            .activeAlerts()
            .filter((a) => a.state === 'firing')
            .map((a) => ({ exp_labels: a.labels.without('alertname').toRecord(), exp_annotations: a.annotations.toRecord() }));
          firing.set(`${r.name}@${t}`, [...(firing.get(`${r.name}@${t}`) ?? []), ...list]);
        }
      },
    });
    const firstErrorAt = Math.min(...errorsAt.keys());
    const promqlTests = [];
    for (const minute of c.minutes) {
      for (const expr of c.exprs) {
        const r = await d.client.instant(expr, minute * M);
        if (r.data.resultType !== 'vector') throw new Error(`${expr}: not a vector`);
        promqlTests.push({ expr, eval_time: `${minute}m`, exp_samples: r.data.result.map((s) => ({ labels: labelsText(s.metric), value: Number(s.value[1]) })) });
      }
    }
    const alertTests = c.minutes.flatMap((minute) => (c.alerts ?? []).map((alertname) => ({ eval_time: `${minute}m`, alertname, exp_alerts: firing.get(`${alertname}@${minute * M}`) ?? [] })));
    return {
      testFile: {
        rule_files: ['rules.json'],
        evaluation_interval: '1m',
        ...(c.groupEvalOrder !== undefined ? { group_eval_order: c.groupEvalOrder } : {}),
        tests: [{ name: c.name, interval: '1m', input_series: c.series, promql_expr_test: promqlTests, alert_rule_test: alertTests }],
      },
      errors: Number.isFinite(firstErrorAt) ? (errorsAt.get(firstErrorAt) ?? []) : [],
    };
  } finally {
    await d.close();
  }
}

/** promtool's verdict on our results: agreement, or each mismatch it printed. */
interface Verdict {
  readonly name: string;
  readonly agree: boolean;
  readonly reasons: string[];
}

/** Splits promtool's failure output into one text per mismatch (`expr: ...`, `alertname: ...`, `rule: ...`). */
function parsePromtoolFailures(output: string): string[] {
  const blocks: string[] = [];
  for (const line of output.split('\n')) {
    if (/^\s{4}(expr|alertname|rule|name):/.test(line) && !/^\s{4}name:/.test(line)) blocks.push(line.trim());
    else if (/^\s{4}name:/.test(line)) continue;
    else if (blocks.length > 0 && /^\s{8,}\S/.test(line)) blocks[blocks.length - 1] += ` | ${line.trim()}`;
  }
  return blocks;
}

async function judge(promtool: string, c: DiffCase, dir: string): Promise<Verdict> {
  const ours = await evaluateOurs(c);
  const caseDir = fs.mkdtempSync(path.join(dir, 'case-'));
  fs.writeFileSync(path.join(caseDir, 'rules.json'), JSON.stringify({ groups: c.groups }, null, 1));
  fs.writeFileSync(path.join(caseDir, 'test.json'), JSON.stringify(ours.testFile, null, 1));
  const out = await run(promtool, ['test', 'rules', 'test.json'], { cwd: caseDir }).then(
    (r) => ({ ok: true, text: r.stdout + r.stderr }),
    (e: unknown) => {
      const f = e as { stdout?: string; stderr?: string };
      return { ok: false, text: (f.stdout ?? '') + (f.stderr ?? '') };
    },
  );
  const failures = out.ok ? [] : parsePromtoolFailures(out.text);
  if (ours.errors.length > 0) {
    // Both must fail at the same first instant with the same rule errors.
    const promErrors = failures.filter((f) => f.startsWith('rule:'));
    const missing = ours.errors.filter((e) => !promErrors.includes(e));
    const extra = promErrors.filter((e) => !ours.errors.includes(e));
    const reasons = [...missing.map((e) => `we report, promtool does not: ${e}`), ...extra.map((e) => `promtool reports, we do not: ${e}`)];
    return { name: c.name, agree: !out.ok && reasons.length === 0, reasons };
  }
  return { name: c.name, agree: out.ok, reasons: out.ok ? [] : failures.length > 0 ? failures : [out.text.slice(0, 2000)] };
}

describe('rule evaluation against promtool test rules (2.42)', () => {
  itWithPeer(
    `${DIFF_CASES.length} rule groups agree with promtool`,
    'promtool',
    async (promtool) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-rules-promtool-'));
      try {
        const verdicts: Verdict[] = [];
        for (const c of DIFF_CASES) verdicts.push(await judge(promtool, c, dir));
        const agreeing = verdicts.filter((v) => v.agree);
        const report = [
          `rules vs promtool: ${agreeing.length} of ${verdicts.length} cases agree`,
          ...verdicts.filter((v) => !v.agree).flatMap((v) => [`DISAGREE ${v.name}:`, ...v.reasons.map((r) => `  ${r}`)]),
        ].join('\n');
        process.stdout.write(`${report}\n`);
        expect(verdicts.length).toBeGreaterThanOrEqual(20);
        expect(report).toBe(`rules vs promtool: ${verdicts.length} of ${verdicts.length} cases agree`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
