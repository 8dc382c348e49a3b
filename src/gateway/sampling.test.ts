import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noopLogger } from '../model/index.js';
import { validateGatewayConfig } from './config.js';
import { JsonlFileSink, Sampler, type GatewaySample } from './sampling.js';

const dir = mkdtempSync(join(tmpdir(), 'gateway-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cfg = (sampling: Record<string, unknown>) => validateGatewayConfig({ sampling }).sampling;

const sample = (text: string): GatewaySample => ({
  tMs: 1,
  model: 'm',
  stream: false,
  status: 200,
  labels: { replica: 'r0' },
  request: { messages: [{ role: 'user', content: 'q' }] },
  response: { text, finishReasons: ['stop'], error: null },
  usage: null,
  timings: { ttftS: null, e2eS: 0.5, modelS: 0.4, overheadS: 0.1, chunks: 0, meanItlS: null },
});

describe('Sampler', () => {
  it('samples the configured share, reproducibly from the seed, and nothing at rate 0', () => {
    const count = (rate: number, seed: number): number => {
      const s = new Sampler(cfg({ rate, seed }));
      let n = 0;
      for (let i = 0; i < 10_000; i++) if (s.pick()) n++;
      return n;
    };
    expect(count(0, 1)).toBe(0);
    expect(count(1, 1)).toBe(10_000);
    expect(count(0.1, 7)).toBeGreaterThan(900);
    expect(count(0.1, 7)).toBeLessThan(1100);
    expect(count(0.1, 7)).toBe(count(0.1, 7));
  });

  it('applies every rule in order to every string of a value, then caps the length', () => {
    const s = new Sampler(cfg({ max_text_chars: 40, redact: [{ pattern: '\\b\\d{16}\\b', replacement: '[CARD]' }, { pattern: 'secret', flags: 'i', replacement: '***' }] }));
    expect(s.redact('card 4111111111111111, SECRET and secret')).toBe('card [CARD], *** and ***');
    expect(s.redactValue({ a: ['4111111111111111', 3, null], b: { c: 'Secret' } })).toEqual({ a: ['[CARD]', 3, null], b: { c: '***' } });
    expect(s.redact('x'.repeat(50))).toBe(`${'x'.repeat(40)}…`);
  });
});

describe('JsonlFileSink', () => {
  it('appends one JSON object per line, creating the directory', async () => {
    const path = join(dir, 'deep', 'samples.jsonl');
    const sink = new JsonlFileSink(path, noopLogger);
    sink.write(sample('one'));
    sink.write(sample('two'));
    await sink.close();
    const again = new JsonlFileSink(path, noopLogger);
    again.write(sample('three'));
    await again.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as GatewaySample);
    expect(lines.map((l) => l.response.text)).toEqual(['one', 'two', 'three']);
  });

  it('drops samples, counting them, when the disk falls behind', async () => {
    const sink = new JsonlFileSink(join(dir, 'slow.jsonl'), noopLogger, 10);
    for (let i = 0; i < 5; i++) sink.write(sample('y'.repeat(100)));
    expect(sink.written).toBe(1);
    expect(sink.dropped).toBe(4);
    await sink.close();
  });
});
