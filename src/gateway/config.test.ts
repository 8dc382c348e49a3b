import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './config.js';
import { GatewayConfigError } from './errors.js';

const EXAMPLE = `
listen: 127.0.0.1:9310
local_az: us-east-1a
flush_interval: 5s
limits: { max_body_bytes: 2MiB, request_timeout: 5m }
upstream: { retries: 2, idle_timeout: 60s }
health_check: { path: /health, interval: 5s }
ejection: { consecutive_failures: 2, base_time: 30s }
sampling:
  rate: 0.01
  file: ./data/samples.jsonl
  redact: [{ pattern: '\\b\\d{16}\\b', replacement: '[CARD]' }]
models:
  - name: openai/gpt-oss-20b
    aliases: [gpt-oss-20b]
    max_concurrency: 64
    tokens_per_minute: 2000000
    replicas:
      - url: http://10.0.0.1:8000/
        labels: { endpoint: chat-prod, component: gpt-oss-20b, replica: r1, instance: i1, instance_type: ml.g5.12xlarge, az: us-east-1a, engine: vllm }
      - http://10.0.0.2:8000
`;

describe('parseGatewayConfig', () => {
  it('reads a full example and fills defaults', () => {
    const c = parseGatewayConfig(EXAMPLE);
    expect(c).toMatchObject({ listen: '127.0.0.1:9310', localAz: 'us-east-1a', crossAzPenalty: 1, flushIntervalMs: 5000 });
    expect(c.limits).toEqual({ maxBodyBytes: 2 * 1024 * 1024, bodyTimeoutMs: 30_000, requestTimeoutMs: 300_000, maxResponseBytes: 32 * 1024 * 1024 });
    expect(c.upstream).toMatchObject({ retries: 2, idleTimeoutMs: 60_000, connectTimeoutMs: 5000 });
    expect(c.healthCheck).toMatchObject({ enabled: true, path: '/health', intervalMs: 5000 });
    expect(c.ejection).toMatchObject({ consecutiveFailures: 2, baseMs: 30_000, maxEjectedPercent: 50 });
    expect(c.sampling.rate).toBe(0.01);
    expect(c.sampling.redact).toEqual([{ pattern: '\\b\\d{16}\\b', replacement: '[CARD]' }]);
    const m = c.models[0];
    expect(m).toMatchObject({ name: 'openai/gpt-oss-20b', aliases: ['gpt-oss-20b'], upstreamModel: 'openai/gpt-oss-20b', maxConcurrency: 64, tokensPerMinute: 2_000_000 });
    expect(m.replicas[0]).toEqual({ url: 'http://10.0.0.1:8000', labels: { endpoint: 'chat-prod', component: 'gpt-oss-20b', replica: 'r1', instance: 'i1', instance_type: 'ml.g5.12xlarge', az: 'us-east-1a', engine: 'vllm' } });
    expect(m.replicas[1]).toEqual({ url: 'http://10.0.0.2:8000', labels: { replica: '10.0.0.2:8000' } });
  });

  it('an empty document is a gateway with no models and the defaults', () => {
    const c = parseGatewayConfig('');
    expect(c.models).toEqual([]);
    expect(c.sampling.rate).toBe(0);
    expect(c.crossAzPenalty).toBe(0);
  });

  it.each([
    ['models: [{ name: m, replicas: [{ url: "ftp://x" }] }]', 'models[0].replicas[0].url: want an http:// URL'],
    ['models: [{ name: m, replicas: [{ url: "not a url" }] }]', 'models[0].replicas[0].url: not a URL'],
    ['models: [{ name: m, replicas: [{ url: "http://a:1", labels: { gpu_model: x } }] }]', 'models[0].replicas[0].labels.gpu_model: unknown field'],
    ['models: [{ name: m, replicas: [http://a:1, http://a:1] }]', 'models[0].replicas[1].url: listed twice'],
    ['models: [{ name: m }, { name: n, aliases: [m] }]', 'models[1]: model name "m" is already used by models[0]'],
    ['models: [{ replicas: [] }]', 'models[0].name: required'],
    ['models: [{ name: m, max_concurrency: -1 }]', 'models[0].max_concurrency: want an integer >= 0'],
    ['models: [{ name: m, tokens_per_minute: lots }]', 'models[0].tokens_per_minute: want a number'],
    ['modles: []', 'modles: unknown field'],
    ['listen: localhost', 'listen: want host:port'],
    ['listen: 9310', 'listen: want a string'],
    ['flush_interval: soon', 'flush_interval: want a duration'],
    ['limits: { max_body_bytes: 4 parsecs }', 'limits.max_body_bytes: want a size'],
    ['upstream: { retries: 11 }', 'upstream.retries: want an integer in [0, 10]'],
    ['health_check: { path: health }', 'health_check.path: want a path starting with /'],
    ['health_check: { enabled: yes please }', 'health_check.enabled: want true or false'],
    ['sampling: { rate: 2 }', 'sampling.rate: want a number in [0, 1]'],
    ['sampling: { redact: [{ pattern: "(" }] }', 'sampling.redact[0].pattern: invalid regular expression'],
    // A backtracking-only construct: the rules are RE2 (linear time), not JavaScript regular expressions.
    ['sampling: { redact: [{ pattern: "a(?=b)" }] }', 'sampling.redact[0].pattern: invalid regular expression'],
    ['sampling: { redact: [{ pattern: "a", flags: "y" }] }', 'sampling.redact[0].flags: want some of i, m, s'],
    ['models: 3', 'models: want a list'],
    ['- 1', 'want a mapping'],
    ['a: [', 'invalid YAML'],
    ['a: 1\na: 2', 'invalid YAML'],
  ])('%s', (text, message) => {
    let err: unknown;
    try {
      parseGatewayConfig(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayConfigError);
    expect((err as GatewayConfigError).code).toBe('ERR_GATEWAY_CONFIG');
    expect((err as Error).message).toContain(message);
  });
});
