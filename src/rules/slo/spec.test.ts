import { describe, expect, it } from 'vitest';
import { sloSpecProblems, type SloSpec } from './spec.js';

describe('sloSpecProblems', () => {
  it.each<[string, SloSpec[], RegExp | undefined]>([
    ['a valid latency objective', [{ slo: 'ttft', objective: 0.99, thresholdSeconds: 5 }], undefined],
    ['a valid availability objective', [{ slo: 'availability', objective: 0.999 }], undefined],
    ['an objective of 1', [{ slo: 'ttft', objective: 1, thresholdSeconds: 5 }], /objective 1 is not between 0 and 1/],
    ['a latency objective without threshold', [{ slo: 'e2e', objective: 0.99 }], /needs a positive threshold/],
    ['an availability objective with a threshold', [{ slo: 'availability', objective: 0.99, thresholdSeconds: 1 }], /takes no threshold/],
    ['a histogram not in the catalog', [{ slo: 'ttft', objective: 0.99, thresholdSeconds: 1, histogram: 'vllm:time_to_first_token_seconds' }], /not a latency histogram of the catalog/],
    ['a catalog histogram that is no request latency', [{ slo: 'ttft', objective: 0.99, thresholdSeconds: 1, histogram: 'llm_request_prompt_tokens' }], /not a latency histogram/],
    ['a period under a day', [{ slo: 'ttft', objective: 0.99, thresholdSeconds: 1, periodMs: 3_600_000 }], /at least 1d/],
    [
      'two objectives whose series collide',
      [
        { slo: 'ttft', objective: 0.99, thresholdSeconds: 5 },
        { slo: 'ttft', objective: 0.99, thresholdSeconds: 5, component: 'c' },
      ],
      /slos\[1\].*would collide/,
    ],
  ])('%s', (_name, specs, want) => {
    const got = sloSpecProblems(specs);
    if (want === undefined) expect(got).toEqual([]);
    else expect(got.join('\n')).toMatch(want);
  });

  it('lets the same objective cover two different components', () => {
    expect(
      sloSpecProblems([
        { slo: 'ttft', objective: 0.99, thresholdSeconds: 5, component: 'a' },
        { slo: 'ttft', objective: 0.99, thresholdSeconds: 5, component: 'b' },
      ]),
    ).toEqual([]);
  });
});
