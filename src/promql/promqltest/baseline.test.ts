import { describe, expect, it } from 'vitest';
import { compareKeys, diffBaseline, formatBaseline, formatReport, formatSummary, parseBaseline } from './baseline.js';
import type { EvalRecord } from './runner.js';

const rec = (file: string, line: number, status: EvalRecord['status'], reason = '', lenientPass = false): EvalRecord => ({
  file,
  line,
  expr: `expr${line}`,
  status,
  reason,
  lenientPass,
});

describe('baseline', () => {
  const records = [rec('b.test', 10, 'pass'), rec('a.test', 100, 'pass'), rec('a.test', 9, 'fail', 'wrong', true), rec('a.test', 20, 'skip', 'no NH'), rec('a.test', 30, 'skip', 'no NH')];

  it('sorts keys by file, then numerically by line', () => {
    expect(['a.test:100', 'b.test:1', 'a.test:9'].sort(compareKeys)).toEqual(['a.test:9', 'a.test:100', 'b.test:1']);
  });

  it('round-trips the passing evals', () => {
    const text = formatBaseline(records);
    expect([...parseBaseline(text)]).toEqual(['a.test:100', 'b.test:10']);
  });

  it('reports regressions and new passes, never old failures', () => {
    expect(diffBaseline(records, new Set(['a.test:100', 'a.test:9', 'c.test:1']))).toEqual({
      regressions: ['a.test:9', 'c.test:1'],
      newlyPassing: ['b.test:10'],
    });
    expect(diffBaseline(records, new Set(['a.test:100', 'b.test:10'])).regressions).toEqual([]);
  });

  it('prints the summary line and the report', () => {
    expect(formatSummary(records)).toBe('promqltest: 2 passed, 1 failed, 2 skipped-with-reason');
    const report = formatReport(records);
    expect(report).toContain('a.test:9 [lenient pass]\n  expr:   expr9\n  reason: wrong');
    expect(report).toContain('  2  no NH');
  });
});
