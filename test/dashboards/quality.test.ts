// The Quality dashboard as data: quality beside quantity on one time axis (every panel a time
// series), Insights' variables and markers, unique ids, and every query and annotation parsed by
// our PromQL parser after interpolation, each selector a catalog metric. In test/ because
// src/dashboards may not import promql.
import { describe, expect, it } from 'vitest';
import { INSIGHTS, QUALITY, DRIFT_ANNOTATION, builtinIntervals, dashboardById, dashboardPanels, defaultValues, familyName, interpolate, panelQueries } from '../../src/dashboards/index.js';
import { parseExpr, walkExpr } from '../../src/promql/index.js';
import { catalogMetric } from '../../src/semconv/index.js';

const panels = dashboardPanels(QUALITY);
const builtins = builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 });
const parse = (expr: string) => parseExpr(interpolate(expr, defaultValues(QUALITY), { variables: QUALITY.variables, ...builtins }));

describe('the Quality dashboard', () => {
  it('is listed, shares Insights variables and markers, drift among them', () => {
    expect(dashboardById('quality')).toBe(QUALITY);
    expect(QUALITY.variables).toBe(INSIGHTS.variables);
    expect(QUALITY.annotations).toBe(INSIGHTS.annotations);
    expect(INSIGHTS.annotations).toContain(DRIFT_ANNOTATION);
  });

  it('puts scores, TTFT P99, GPU memory, cost per hour and the evaluation panels on one time axis, ids unique', () => {
    expect(panels.map((p) => p.id)).toEqual(['quality-scores', 'quality-ttft', 'quality-gpu-memory', 'quality-cost', 'quality-eval-latency', 'quality-judge-tokens', 'quality-eval-errors', 'quality-drift']);
    expect(panels.every((p) => p.viz === 'timeseries')).toBe(true);
    expect(new Set(panels.map((p) => p.title)).size).toBe(panels.length);
  });

  it.each([...panels.flatMap((p) => panelQueries(p).map((q) => [`${p.id}/${q.refId}`, q.expr] as const)), ...QUALITY.annotations.map((a) => [`annotation ${a.id}`, a.expr] as const)])(
    '%s parses and reads catalog metrics only',
    (_id, expr) => {
      walkExpr(parse(expr), (n) => {
        if (n.type === 'VectorSelector' && n.name !== 'up') expect(catalogMetric(familyName(n.name)), n.name).toBeDefined();
      });
    },
  );

  it('reads the quality namespace, the engines, the GPUs and the cost module', () => {
    const names = new Set<string>();
    for (const p of panels) for (const q of panelQueries(p)) walkExpr(parse(q.expr), (n) => (n.type === 'VectorSelector' ? void names.add(familyName(n.name)) : undefined));
    for (const want of ['llm_quality_score', 'llm_time_to_first_token_seconds', 'gpu_memory_used_bytes', 'llm_cost_dollars_per_hour', 'llm_quality_evaluation_duration_seconds', 'llm_e2e_request_latency_seconds', 'llm_quality_judge_tokens_total', 'llm_quality_evaluation_errors_total', 'llm_quality_drift_score'])
      expect(names, want).toContain(want);
  });
});
