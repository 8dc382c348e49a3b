/** The quality pipeline's `SampleInput` is a structural copy of the gateway's `GatewaySample`: the server passes one as the other. */
import { expect, test } from 'vitest';
import type { GatewaySample } from '../../src/gateway/index.js';
import { toSampledPair, type SampleInput } from '../../src/quality/index.js';

test('a GatewaySample is a SampleInput, and back', () => {
  const g: GatewaySample = {
    tMs: 1000,
    model: 'm',
    stream: false,
    status: 200,
    labels: { component: 'c', endpoint: 'e' },
    request: { prompt: ['a', 'b'] },
    response: { text: 'hi', finishReasons: ['length'], error: null },
    usage: null,
    timings: { ttftS: null, e2eS: 1, modelS: null, overheadS: null, chunks: 0, meanItlS: null },
  };
  const s: SampleInput = g;
  const back: GatewaySample = s;
  expect(toSampledPair(back, 'id', (t) => t)).toMatchObject({ id: 'id', component: 'c', endpoint: 'e', model: 'm', prompt: 'a\nb', finishReason: 'length', promptTokens: null });
});
