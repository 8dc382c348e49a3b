import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CostSummaryData } from '../../../../src/query/index.js';
import { CostSummaryView } from './CostSummary.js';
import { sortedFindings, totalPerHour } from './cost-model.js';

const T = 1_736_163_000;
const verdict = (replica: string, bound: string, reason: string) => ({
  replica,
  instance: 'i-1',
  component: 'llama',
  model: 'llama-3-8b',
  bound,
  inputs: { smActive: 0.3, tensorActive: 0.1, dramActive: 0.8, memCopyUtil: null, mfu: null, mbu: 0.7 },
  reason,
});
const SUMMARY: CostSummaryData = {
  time: T,
  catalog: { takenOn: '2026-11-01', region: 'us-east-1', instanceTypes: 42 },
  components: [
    { endpoint: 'chat', component: 'qwen', model: 'qwen-7b', dollarsPerHour: 1, gpus: 1, dollarsPerMillionInputTokens: 0.1, dollarsPerMillionOutputTokens: 0.4, benchmarkEfficiency: null },
    { endpoint: 'chat', component: 'llama', model: 'llama-3-8b', dollarsPerHour: 9.5, gpus: 8, dollarsPerMillionInputTokens: null, dollarsPerMillionOutputTokens: 2.5, benchmarkEfficiency: 0.92 },
  ],
  idle: { gpus: 3, dollarsPerHour: 3.6 },
  verdicts: [verdict('llama-1', 'compute', 'SM 90% busy'), verdict('llama-0', 'memory', 'DRAM <b>78%</b> busy against tensor 12%')],
  findings: [
    { kind: 'over-provisioned', scope: { component: 'qwen' }, text: 'qwen: 4x the capacity its peak needed', dollarsPerDay: 10, since: T - 3600, query: 'x' },
    { kind: 'idle-gpus', scope: { component: 'llama' }, text: 'llama-prod: 3 of 9 GPUs idle for 6 h, $86 a day <script>alert(1)</script>', dollarsPerDay: 86, since: T - 6 * 3600, query: 'y' },
  ],
};

describe('the Cost page summary', () => {
  it('orders the findings by what they cost and totals the components', () => {
    expect(sortedFindings(SUMMARY).map((f) => f.kind)).toEqual(['idle-gpus', 'over-provisioned']);
    expect(totalPerHour(SUMMARY)).toBe(10.5);
  });

  it('renders findings, components and verdicts, reasons as text, never HTML', () => {
    const html = renderToString(<CostSummaryView summary={SUMMARY} />);
    expect(html).toContain('data-state="ready"');
    expect([...html.matchAll(/data-testid="cost-finding" data-kind="([^"]*)"/g)].map((m) => m[1])).toEqual(['idle-gpus', 'over-provisioned']);
    expect([...html.matchAll(/data-testid="cost-verdict" data-replica="([^"]*)" data-bound="([^"]*)"/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual(['llama-0:memory', 'llama-1:compute']);
    expect([...html.matchAll(/<tr data-component="([^"]*)"/g)].map((m) => m[1])).toEqual(['llama', 'qwen']);
    expect(html).toContain('DRAM &lt;b&gt;78%&lt;/b&gt; busy');
    expect(html).not.toContain('<b>78%');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Prices of 2026-11-01');
  });

  it.each([
    ['loading', undefined, undefined],
    ['error', undefined, 'cost is not available on this server'],
  ])('says %s before a summary arrives', (state, summary, error) => {
    const html = renderToString(<CostSummaryView summary={summary} error={error} />);
    expect(html).toContain(`data-state="${state}"`);
    if (error !== undefined) expect(html).toContain(error);
  });
});
