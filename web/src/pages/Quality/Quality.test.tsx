import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EvaluationWire, SampleWire } from '../../../../src/query/index.js';
import { excerpt, flagsOf, sampleParams, scoresOf, NO_FILTERS } from './quality-model.js';
import { SampleDetail, SampleList } from './SampleBrowser.js';

const T = 1_767_614_400;
const HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
const ev = (over: Partial<EvaluationWire>): EvaluationWire => ({ stage: 2, evaluator: 'judge:safety', dimension: 'safety', score: 0.4, flag: null, detail: 'ok', error: null, durationSeconds: 0.5, judgeTokens: { input: 100, output: 20 }, time: T, ...over });
const SAMPLE: SampleWire = {
  pair: { id: 'p1', time: T, endpoint: 'chat', component: 'llama-a', model: 'llama-3-8b', prompt: `user: say ${HOSTILE}`, response: HOSTILE, status: 200, finishReason: 'stop', promptTokens: 4, completionTokens: 9, wantJson: false, ttftSeconds: null, e2eSeconds: 0.9 },
  evaluations: [ev({ detail: `judge says ${HOSTILE}` }), ev({ stage: 1, evaluator: 'stage1:pii', dimension: null, score: 0, flag: 'pii', detail: '', judgeTokens: null }), ev({ dimension: 'safety', score: 0.2 }), ev({ evaluator: 'judge:relevance', dimension: 'relevance', score: null, error: 'timeout after 10s' })],
};

describe('quality model', () => {
  it.each([
    ['no filter: only the range and the limit', NO_FILTERS, [['start', String(T)], ['end', String(T + 60)], ['limit', '50']]],
    [
      'every filter, trimmed',
      { model: ' llama-3-8b ', dimension: 'safety', minScore: '0', maxScore: '0.5', flag: 'pii' },
      [['model', 'llama-3-8b'], ['dimension', 'safety'], ['min_score', '0'], ['max_score', '0.5'], ['flag', 'pii'], ['start', String(T)], ['end', String(T + 60)], ['limit', '50']],
    ],
  ])('asks the route with %s', (_name, filters, want) => {
    expect(sampleParams(filters, T * 1000, (T + 60) * 1000)).toEqual(want);
  });

  it('summarizes a sample: flags once, the lowest score per dimension, one-line excerpts', () => {
    expect(flagsOf(SAMPLE.evaluations)).toEqual(['pii']);
    expect(scoresOf(SAMPLE.evaluations)).toEqual([['safety', 0.2]]);
    expect(excerpt('a\n  b', 10)).toBe('a b');
    expect(excerpt('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('the sample browser renders texts as text (server render)', () => {
  it.each([
    ['the detail', renderToString(<SampleDetail sample={SAMPLE} />)],
    ['the list', renderToString(<SampleList samples={[SAMPLE]} selected="" onSelect={() => undefined} />)],
  ])('%s escapes markup: no script element, no image, the markup shown literally', (_name, html) => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;');
  });

  it('shows every evaluation with its detail or its failure', () => {
    const html = renderToString(<SampleDetail sample={SAMPLE} />);
    expect([...html.matchAll(/data-testid="evaluation-row"/g)].length).toBe(4);
    expect(html).toContain('failed: timeout after 10s');
    expect(html).toContain('judge says &lt;script&gt;');
  });
});
