import { describe, expect, it } from 'vitest';
import { leMatcher, sliRates, thresholdUnmatchedExpr } from './sli.js';

/** Whether the `le` matcher of `v` matches the label value `le` (PromQL regexes are anchored). */
function matches(v: number, le: string): boolean {
  return new RegExp(`^(?:${leMatcher(v)})$`).test(le);
}

describe('leMatcher', () => {
  it.each([
    [5, '5', true],
    [5, '5.0', true],
    [5, '5.00', true],
    [5, '50', false],
    [5, '0.5', false],
    [5, '5.5', false],
    [5, '15', false],
    [0.1, '0.1', true],
    [0.1, '0.10', true],
    [0.1, '0.15', false],
    [0.1, '10.1', false],
    [0.1, '1', false],
    [2.5, '2.5', true],
    [2.5, '2.50', true],
    [2.5, '2.05', false],
    [120, '120.0', true],
    [120, '12', false],
  ])('threshold %s against le=%j: %s', (v, le, want) => {
    expect(matches(v, le)).toBe(want);
  });

  it('writes no backslash (PromQL and YAML text stay plain)', () => {
    expect(leMatcher(0.25)).not.toContain('\\');
  });
});

describe('sliRates', () => {
  it('reads a latency SLI per layout source, only where the source has the threshold bucket', () => {
    const r = sliRates({ slo: 'ttft', objective: 0.99, thresholdSeconds: 5, component: 'c' }, '5m');
    const count = 'sum by (endpoint, component, job) (rate(llm_client_time_to_first_token_seconds_count{component="c"}[5m]))';
    const good = 'sum by (endpoint, component, job) (rate(llm_client_time_to_first_token_seconds_bucket{component="c", le=~"5([.]0*)?"}[5m]))';
    expect(r.total).toBe(`sum by (endpoint, component) (${count} and ${good})`);
    expect(r.bad).toBe(`sum by (endpoint, component) (${count} - ${good})`);
  });

  it('keeps engine histograms apart by engine', () => {
    expect(sliRates({ slo: 'itl', objective: 0.95, thresholdSeconds: 0.1 }, '5m').bad).toContain('sum by (endpoint, component, engine) (rate(llm_inter_token_latency_seconds_count[5m]))');
  });

  it('reads availability from the front door, 5xx as bad, zero where no 5xx series exists', () => {
    const r = sliRates({ slo: 'availability', objective: 0.999, endpoint: 'e' }, '5m');
    expect(r.bad).toBe('sum by (endpoint, component) (rate(llm_client_requests_total{endpoint="e", status_class="5xx"}[5m])) or 0 * sum by (endpoint, component) (rate(llm_client_requests_total{endpoint="e"}[5m]))');
    expect(thresholdUnmatchedExpr({ slo: 'availability', objective: 0.999 })).toBeUndefined();
  });
});
