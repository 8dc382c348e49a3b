// The rule pack as data: the generated rule file is current, every expression parses, reads only
// catalog names (or `up`, or series the pack records itself), never mixes bucket layouts, and every
// alert has its severity, summary, description and a runbook anchor that docs/runbooks.md has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { familyName, layoutLabels } from '../../src/dashboards/index.js';
import { parseExpr, walkExpr } from '../../src/promql/index.js';
import { RULE_PACK_FILE, rulePack, rulePackYaml, type RuleSpec } from '../../src/rules/index.js';
import { catalogMetric } from '../../src/semconv/index.js';
import { histogramLayoutViolations } from '../dashboards/histogram-layouts.js';

const root = new URL('../../', import.meta.url);
const pack = rulePack();
const rules: RuleSpec[] = pack.groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.kind === 'alerting');
const recorded = new Set(rules.flatMap((r) => (r.kind === 'recording' ? [r.record] : [])));
const ruleName = (r: RuleSpec) => (r.kind === 'recording' ? r.record : r.alert);

/** The metric names an expression selects. */
function selected(expr: string): string[] {
  const out: string[] = [];
  walkExpr(parseExpr(expr), (n) => {
    if (n.type === 'VectorSelector') out.push(n.name);
  });
  return out;
}

/** Layout labels of a series: a recorded bucket rate keeps its source in its name's level (`…_engine:` / `…_job:`). */
function layoutLabelsOf(name: string): readonly string[] {
  if (recorded.has(name)) return name.includes('_engine:') ? ['engine'] : ['job'];
  return layoutLabels(name);
}

describe('the rule pack as data', () => {
  it('is checked in as generated (npm run gen-rule-pack)', () => {
    expect(readFileSync(new URL(`docs/rules/${RULE_PACK_FILE}`, root), 'utf8')).toBe(rulePackYaml());
  });

  it('has a version', () => {
    expect(pack.version).toMatch(/^\d+$/);
  });

  it.each(rules.map((r) => [ruleName(r), r] as const))('%s reads only catalog names, up and recorded series', (_name, r) => {
    const unknown = selected(r.expr).filter((n) => n !== 'up' && !recorded.has(n) && catalogMetric(familyName(n)) === undefined);
    expect(unknown).toEqual([]);
  });

  it.each(rules.map((r) => [ruleName(r), r] as const))('%s never mixes bucket layouts', (_name, r) => {
    expect(histogramLayoutViolations(r.expr, layoutLabelsOf)).toEqual([]);
  });

  const runbooks = readFileSync(new URL('docs/runbooks.md', root), 'utf8');
  /** GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped. */
  const anchors = new Set([...runbooks.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));

  it.each(alerts.map((r) => [r.alert, r] as const))('%s has severity, summary, description and a runbook that exists', (_name, r) => {
    expect(['page', 'ticket', 'info']).toContain(r.labels.severity);
    expect(r.annotations.summary).toBeTruthy();
    expect(r.annotations.description).toBeTruthy();
    const anchor = /^docs\/runbooks\.md#(.+)$/.exec(r.annotations.runbook ?? '')?.[1];
    expect(anchor).toBeDefined();
    expect(anchors.has(anchor ?? '')).toBe(true);
  });

  it('takes its band and thresholds from the options', () => {
    const text = (o: Parameters<typeof rulePack>[0]) => rulePack(o).groups.flatMap((g) => g.rules.map((r) => r.expr)).join('\n');
    expect(text({ kvBand: { low: 0.6, high: 0.7 } })).toContain('(llm_kv_cache_usage_ratio) >= 0.6');
    expect(text({ gpuMemoryRatio: 0.9 })).toContain('> 0.9');
    expect(text({ quality: { safety: 0.9, relevance: 0.7, composite: 0.75 } })).toContain('{dimension="safety"}) < 0.9');
  });

  it.each([
    [{ kvBand: { low: 0.6, high: 0.5 } }, /low 0.6 is above high 0.5/],
    [{ ratio5xx: 0 }, /ratio5xx 0 is not a share/],
    [{ azSkewFactor: 1 }, /azSkewFactor 1 must be above 1/],
    [{ slos: [{ slo: 'ttft' as const, objective: 1.5, thresholdSeconds: 1 }] }, /objective 1.5 is not between 0 and 1/],
  ])('refuses %j', (o, want) => {
    expect(() => rulePack(o)).toThrow(want);
  });
});
