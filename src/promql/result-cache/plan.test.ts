import { describe, expect, it } from 'vitest';
import { parseExpr } from '../parser/index.js';
import { planQuery } from './plan.js';

const MIN = 60_000;
const parse = (q: string) => parseExpr(q, { enableDurationExpressions: true, enableExtendedRangeSelectors: true, enableExperimentalFunctions: true });

describe('planQuery', () => {
  it.each([
    ['m', -5 * MIN, 0],
    ['rate(m[5m])', -10 * MIN, 0],
    ['m offset 5m', -10 * MIN, -5 * MIN],
    ['m offset -2m', -3 * MIN, 2 * MIN],
    ['max_over_time(m[10m:1m] offset -5m)', -10 * MIN, 5 * MIN],
    ['rate(m[step() * 4])', -6 * MIN, 0],
    ['rate(m[5m] smoothed)', -15 * MIN, 5 * MIN],
    ['a offset 1h + b offset -1m', -65 * MIN, MIN],
    ['1 + time()', Infinity, -Infinity],
  ])('reads around each step of %s: [s + %d, s + %d]', (q, minShiftMs, maxShiftMs) => {
    expect(planQuery(parse(q), 15_000, 5 * MIN)).toEqual({ cacheable: true, text: expect.any(String), minShiftMs, maxShiftMs });
  });

  it.each([
    ['m @ 100', 'the query uses @'],
    ['m @ end()', 'the query uses @'],
    ['max_over_time(m[5m:1m] @ start())', 'the query uses @'],
    ['rate(m[range()])', 'the query uses range()'],
    ['sort_desc(m)', 'the query calls sort_desc()'],
    ['info(m)', 'the query calls info()'],
  ])('bypasses %s', (q, reason) => {
    expect(planQuery(parse(q), 15_000, 5 * MIN)).toEqual({ cacheable: false, reason });
  });

  it('keys queries by their normalised text', () => {
    const a = planQuery(parse('sum  by(job)(rate( m [5m] ))'), 15_000, 5 * MIN);
    const b = planQuery(parse('sum by (job) (rate(m[5m]))'), 15_000, 5 * MIN);
    expect(a.cacheable && b.cacheable && a.text === b.text).toBe(true);
  });
});
