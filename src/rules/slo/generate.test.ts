import { describe, expect, it } from 'vitest';
import { sloRuleGroups } from './generate.js';

const [main, period] = sloRuleGroups([{ slo: 'ttft', objective: 0.99, thresholdSeconds: 5, component: 'c' }]);
const names = (g: typeof main) => g.rules.map((r) => (r.kind === 'recording' ? r.record : r.alert));

describe('sloRuleGroups', () => {
  it('records the 5m rates, then the error ratio of every window, then the alerts', () => {
    expect(names(main)).toEqual([
      'slo:sli_requests:rate5m',
      'slo:sli_errors:rate5m',
      'slo:sli_error:ratio_rate5m',
      'slo:sli_error:ratio_rate30m',
      'slo:sli_error:ratio_rate1h',
      'slo:sli_error:ratio_rate2h',
      'slo:sli_error:ratio_rate6h',
      'slo:sli_error:ratio_rate1d',
      'slo:sli_error:ratio_rate3d',
      'SLOBurnRateFast',
      'SLOBurnRateSlow',
      'SLOThresholdNotABucketBound',
    ]);
    expect(main.name).toBe('slo:ttft:0.99:5s:c');
  });

  it('stamps the objective labels on every recorded series', () => {
    for (const r of main.rules.filter((x) => x.kind === 'recording')) expect(r.labels).toEqual({ slo: 'ttft', objective: '0.99', threshold_seconds: '5' });
  });

  it('writes the workbook burn rates against the rounded error budget', () => {
    const fast = main.rules.find((r) => r.kind === 'alerting' && r.alert === 'SLOBurnRateFast');
    const own = '{slo="ttft", objective="0.99", threshold_seconds="5", component="c"}';
    expect(fast?.expr).toBe(
      `(slo:sli_error:ratio_rate1h${own} > 14.4 * 0.01 and slo:sli_error:ratio_rate5m${own} > 14.4 * 0.01) or (slo:sli_error:ratio_rate6h${own} > 6 * 0.01 and slo:sli_error:ratio_rate30m${own} > 6 * 0.01)`,
    );
    expect(fast?.labels).toEqual({ severity: 'page', slo: 'ttft' });
  });

  it('computes the period ratio, the objective and the budget every 5 minutes', () => {
    expect(period.intervalMs).toBe(300_000);
    expect(names(period)).toEqual(['slo:sli_error:ratio_rate30d', 'slo:objective:ratio', 'slo:error_budget_remaining:ratio']);
    expect(period.rules[2].expr).toBe('1 - slo:sli_error:ratio_rate30d{slo="ttft", objective="0.99", threshold_seconds="5", component="c"} / 0.01');
  });

  it('names the period series after a custom period', () => {
    const [, p] = sloRuleGroups([{ slo: 'availability', objective: 0.999, periodMs: 28 * 86_400_000 }]);
    expect(p.rules[0].kind === 'recording' && p.rules[0].record).toBe('slo:sli_error:ratio_rate4w');
  });

  it('refuses invalid objectives, listing every problem', () => {
    expect(() => sloRuleGroups([{ slo: 'ttft', objective: 0.99 }, { slo: 'availability', objective: 2 }])).toThrow(/positive threshold[\s\S]*not between 0 and 1/);
  });
});
