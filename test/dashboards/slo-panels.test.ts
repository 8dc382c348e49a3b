// The SLO panels' queries (src/dashboards/insights-slo.ts) evaluated by the embedded engine over
// the series of the SLO contract (docs/design/slo-series.md), as the UI interpolates them: with
// every variable at its default, with a hex cell clicked that runs the component, and with one
// that does not. In test/ because src/dashboards may not import promql.
import { describe, expect, it } from 'vitest';
import { INSIGHTS, builtinIntervals, defaultValues, interpolate, panelQueries, type VariableValues } from '../../src/dashboards/index.js';
import { embeddedEngineDeps, runScriptText } from '../../src/promql/promqltest/index.js';

const CHAT = 'slo="ttft", endpoint="chat", component="chat-llama", objective="0.99", threshold_seconds="0.5"';
// A component with SLO series but no replica target: never in a selection, never shown.
const GONE = 'slo="e2e", endpoint="old", component="old-model", objective="0.95", threshold_seconds="10"';

const LOAD = `load 1m
  slo:objective:ratio{${CHAT}} 0.99x20
  slo:sli_error:ratio_rate5m{${CHAT}} 0.2x20
  slo:sli_error:ratio_rate1h{${CHAT}} 0.144x20
  slo:sli_error:ratio_rate6h{${CHAT}} 0.03x20
  slo:sli_error:ratio_rate30d{${CHAT}} 0.005x20
  slo:error_budget_remaining:ratio{${CHAT}} 0.5x20
  slo:objective:ratio{${GONE}} 0.95x20
  slo:error_budget_remaining:ratio{${GONE}} -0.5x20
  up{endpoint="chat", component="chat-llama", instance="i-1", replica="chat-llama-r1", az="us-east-1a", job="vllm"} 1x20
  up{endpoint="code", component="code-qwen", instance="i-2", replica="code-qwen-r1", az="us-east-1b", job="vllm"} 1x20
`;

/** Expected value per `panel/refId` at 10 m for the chat component's objective, and the metric name a plain selector keeps. */
const WANT: Readonly<Record<string, readonly [number, string?]>> = {
  'slo-status/objective': [0.99, 'slo:objective:ratio'],
  'slo-status/attainment': [0.995],
  'slo-status/budget': [0.5, 'slo:error_budget_remaining:ratio'],
  'slo-status/burn_1h': [14.4],
  'slo-status/burn_6h': [3],
  'slo-budget/A': [0.5, 'slo:error_budget_remaining:ratio'],
  'slo-burn/short': [20],
  'slo-burn/long': [14.4],
};

const builtins = builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 });
const sloQueries = INSIGHTS.rows.find((r) => r.id === 'slo')!.panels.flatMap((p) => panelQueries(p).map((q) => ({ key: `${p.id}/${q.refId}`, expr: q.expr })));

async function check(values: VariableValues, shown: boolean): Promise<void> {
  const evals = sloQueries.map(({ key, expr }) => {
    const text = interpolate(expr, values, { variables: INSIGHTS.variables, ...builtins });
    const [value, name] = WANT[key];
    return `# ${key}\neval instant at 10m ${text}\n${shown ? `  ${name ?? ''}{${CHAT}} ${value}` : ''}\n`;
  });
  const records = await runScriptText('slo-panels', `${LOAD}\n${evals.join('\n')}`, embeddedEngineDeps());
  const failures = records.filter((r) => r.status !== 'pass').map((r) => `${r.expr}\n  ${r.status}: ${r.reason}`);
  expect(failures, failures.join('\n')).toEqual([]);
  expect(records).toHaveLength(sloQueries.length);
}

describe('the SLO panels over the SLO series', () => {
  it('covers every query of the row', () => {
    expect(sloQueries.map((q) => q.key).sort()).toEqual(Object.keys(WANT).sort());
  });

  it('show objective, attainment, budget and burn rates of the components in the fleet', () => check(defaultValues(INSIGHTS), true));

  it('follow a hex click on an instance that runs the component', () => check({ ...defaultValues(INSIGHTS), instance: 'i-1' }, true));

  it('are empty ("No SLO data" in the UI) for an instance that does not', () => check({ ...defaultValues(INSIGHTS), instance: 'i-2' }, false));
});
