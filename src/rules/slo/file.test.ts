import { describe, expect, it } from 'vitest';
import { parseSloFile } from './file.js';

describe('parseSloFile', () => {
  it('reads every field', () => {
    const text = ['slos:', '  - slo: ttft', '    objective: 0.995', '    threshold: 2500ms', '    endpoint: chat-prod', '    component: gpt-oss-20b', '    histogram: llm_time_to_first_token_seconds', '    period: 28d', '  - slo: availability', '    objective: 0.999', ''].join('\n');
    expect(parseSloFile(text, 'slos.yml')).toEqual([
      { slo: 'ttft', objective: 0.995, thresholdSeconds: 2.5, endpoint: 'chat-prod', component: 'gpt-oss-20b', histogram: 'llm_time_to_first_token_seconds', periodMs: 28 * 86_400_000 },
      { slo: 'availability', objective: 0.999 },
    ]);
  });

  it('takes threshold_seconds as a number', () => {
    expect(parseSloFile('slos:\n  - {slo: itl, objective: 0.95, threshold_seconds: 0.1}\n', 'f')[0].thresholdSeconds).toBe(0.1);
  });

  it.each([
    ['an unknown field', 'slos:\n  - slo: ttft\n    objectve: 0.9\n', /^f\.yml: line 3: field objectve not found in type slo\.SLO$/],
    ['an unknown kind', 'slos:\n  - slo: tpot\n    objective: 0.9\n', /^f\.yml: line 2: slos\[0\]\.slo: unknown slo "tpot"/],
    ['a missing objective', 'slos:\n  - slo: ttft\n    threshold: 1s\n', /^f\.yml: line 2: slos\[0\]: objective: missing$/],
    ['an objective that is no number', 'slos:\n  - slo: ttft\n    objective: high\n    threshold: 1s\n', /line 3: slos\[0\]\.objective: cannot unmarshal "high" into float64/],
    ['a bad duration', 'slos:\n  - slo: ttft\n    objective: 0.9\n    threshold: 1 s\n', /line 4: slos\[0\]\.threshold:/],
    ['both threshold forms', 'slos:\n  - slo: ttft\n    objective: 0.9\n    threshold: 1s\n    threshold_seconds: 1\n', /line 5: .*not both/],
    ['an invalid objective, with its line', 'slos:\n  - slo: availability\n    objective: 0.9\n  - slo: ttft\n    objective: 2\n    threshold: 1s\n', /^f\.yml: line 4: slos\[1\] \(ttft\): objective 2 is not between 0 and 1/],
  ])('refuses %s', (_name, text, want) => {
    expect(() => parseSloFile(text, 'f.yml')).toThrow(want);
  });
});
