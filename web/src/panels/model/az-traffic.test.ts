import { describe, expect, it } from 'vitest';
import type { InstantSample } from '../../../../src/query/index.js';
import { darkByAz } from './az-traffic.js';

const s = (metric: Record<string, string>, v = '1'): InstantSample => ({ metric, value: [1, v] });

describe('darkByAz', () => {
  it('names each deployment that is up without traffic, per AZ, even where another endpoint serves the same AZ', () => {
    // us-east-1a: chat-prod went dark (both its components) while llama-prod still serves there,
    // so the AZ as a whole has traffic; the query's per-deployment series still name chat-prod.
    const dark = darkByAz([
      s({ az: 'us-east-1a', endpoint: 'chat-prod', component: 'qwen2-5-7b-instruct' }),
      s({ az: 'us-east-1a', endpoint: 'chat-prod', component: 'gpt-oss-20b' }, '2'),
      s({ az: 'us-east-1c', endpoint: 'llama-prod', component: 'llama-3-1-8b-instruct' }),
    ]);
    expect([...dark]).toEqual([
      ['us-east-1a', ['chat-prod/gpt-oss-20b', 'chat-prod/qwen2-5-7b-instruct']],
      ['us-east-1c', ['llama-prod/llama-3-1-8b-instruct']],
    ]);
  });

  it.each([
    ['a zero count', [s({ az: 'a', endpoint: 'e' }, '0')], []],
    ['NaN', [s({ az: 'a', endpoint: 'e' }, 'NaN')], []],
    ['no AZ', [s({ endpoint: 'e' })], []],
    ['no component', [s({ az: 'a', endpoint: 'e' })], [['a', ['e']]]],
  ] as const)('%s', (_name, samples, want) => {
    expect([...darkByAz(samples)]).toEqual(want);
  });
});
