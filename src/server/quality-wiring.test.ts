import { RecordingMetrics } from '../quality/testing/pipeline-doubles.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, test, vi } from 'vitest';
import { ConfigError } from '../config/index.js';
import type { GatewaySample } from '../gateway/index.js';
import { MemoryLogger } from '../model/index.js';
import { FakeTimers, flushAsync } from '../model/testing/fake-timers.js';
import { useCleanups } from '../model/testing/cleanups.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import type { Appendable } from '../storage/index.js';
import { DEFAULT_QUALITY_CONFIG, JUDGE_DEFAULTS, parseQualityConfig, type QualityConfig } from './quality-config.js';
import { wireQuality, type SampleStoreOpenOptions } from './quality-wiring.js';
import { startServer } from './serve.js';
import { testPair, testQualityParts } from './testing/quality-fixture.js';

const cleanups = useCleanups();
const T0 = Date.UTC(2026, 0, 5, 12);
const FILE = '/etc/infersight/config.yml';

/** Each case: the YAML, then what `parseQualityConfig` returns (a config, null) or the error it throws. */
const PARSE_CASES: [name: string, yaml: string, want: QualityConfig | null | { error: string }][] = [
  ['no section', 'scrape_configs: []\n', null],
  ['an empty section', 'quality:\n', null],
  ['defaults', 'quality:\n  sampling: 1\n', DEFAULT_QUALITY_CONFIG],
  [
    'everything',
    [
      'quality:',
      '  store: {kind: postgres, dsn: "postgres://u@127.0.0.1:5432/q"}',
      '  sampling: 0.5',
      '  judge:',
      '    base_url: http://127.0.0.1:9000/v1',
      '    model: judge-1',
      '    api_key_file: key.txt',
      '    share: 0.25',
      '    max_concurrency: 2',
      '    token_budget_per_hour: 5000',
      '    timeout: 3s',
      '  rubrics_file: rubrics.yml',
      '  redact:',
      '    - pattern: "\\\\d{3}-\\\\d{4}"',
      '      replacement: "<phone>"',
      '    - pattern: secret',
      '  retention: {max_age: 2d, max_size: 512MiB}',
      '',
    ].join('\n'),
    {
      store: { kind: 'postgres', dsn: 'postgres://u@127.0.0.1:5432/q' },
      sampling: 0.5,
      judge: { baseURL: 'http://127.0.0.1:9000/v1', model: 'judge-1', apiKeyFile: '/etc/infersight/key.txt', share: 0.25, maxConcurrency: 2, tokenBudgetPerHour: 5000, timeoutMs: 3000 },
      rubricsFile: '/etc/infersight/rubrics.yml',
      redact: [
        { pattern: '\\d{3}-\\d{4}', replacement: '<phone>' },
        { pattern: 'secret', replacement: '[REDACTED]' },
      ],
      retention: { maxAgeMs: 2 * 86_400_000, maxBytes: 512 * 1024 ** 2 },
    },
  ],
  ['judge defaults', 'quality:\n  judge: {base_url: "https://j.example/v1", model: m}\n', { ...DEFAULT_QUALITY_CONFIG, judge: { baseURL: 'https://j.example/v1', model: 'm', apiKeyFile: null, ...JUDGE_DEFAULTS } }],
  ['a pglite directory, relative to the file', 'quality:\n  store: {kind: pglite, dsn: q-data}\n', { ...DEFAULT_QUALITY_CONFIG, store: { kind: 'pglite', dsn: '/etc/infersight/q-data' } }],
  ['an unknown field', 'quality:\n  sampling: 1\n  smapling: 2\n', { error: `${FILE}:3:3: field smapling not found in type quality.Config` }],
  ['an unknown store kind', 'quality:\n  store:\n    kind: sqlite\n', { error: `${FILE}:3:11: quality.store.kind: unknown store kind "sqlite"; want pglite or postgres` }],
  ['postgres without a dsn', 'quality:\n  store:\n    kind: postgres\n', { error: `${FILE}:3:5: quality.store: a postgres store needs dsn (a connection string)` }],
  ['a share above 1', 'quality:\n  sampling: 1.5\n', { error: `${FILE}:2:13: quality.sampling: want a share between 0 and 1, got "1.5"` }],
  ['a share that is no number', 'quality:\n  sampling: lots\n', { error: `${FILE}:2:13: quality.sampling: want a share between 0 and 1, got "lots"` }],
  ['a judge without a model', 'quality:\n  judge:\n    base_url: http://x/v1\n', { error: `${FILE}:3:5: quality.judge: model must be set` }],
  ['a judge URL that is not http', 'quality:\n  judge: {base_url: "file:///etc/passwd", model: m}\n', { error: `${FILE}:2:21: quality.judge.base_url: base_url "file:///etc/passwd" is not an http(s) URL` }],
  ['a bad timeout', 'quality:\n  judge: {base_url: "http://x/v1", model: m, timeout: soon}\n', { error: `${FILE}:2:55: quality.judge.timeout: not a valid duration string: "soon"` }],
  ['a bad redaction pattern', 'quality:\n  redact:\n    - pattern: "(unclosed"\n', { error: `${FILE}:3:16: quality.redact[0].pattern: invalid pattern: Invalid regular expression: /(unclosed/gu: Unterminated group` }],
  ['a bad size', 'quality:\n  retention: {max_size: huge}\n', { error: `${FILE}:2:25: quality.retention.max_size: invalid size "huge": want a number with B, KB, MB, GB, KiB, MiB or GiB` }],
  ['broken YAML', 'quality:\n  sampling: [1\n', { error: `${FILE}:3:1: ` }],
];

describe('parseQualityConfig', () => {
  test.each(PARSE_CASES)('%s', (_name, yaml, want) => {
    if (want !== null && 'error' in want) {
      let err: unknown;
      try {
        parseQualityConfig(yaml, FILE);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message.startsWith(want.error)).toBe(true);
      if (!want.error.endsWith(': ')) expect((err as Error).message).toBe(want.error);
    } else {
      expect(parseQualityConfig(yaml, FILE)).toEqual(want);
    }
  });
});

/** A gateway sample of `text`. */
function sample(text: string, tMs = T0): GatewaySample {
  return {
    tMs,
    model: 'llama-3-8b',
    stream: false,
    status: 200,
    labels: { endpoint: 'chat', component: 'llama-a' },
    request: { messages: [{ role: 'user', content: 'my number is 555-1234' }] },
    response: { text, finishReasons: ['stop'], error: null },
    usage: { promptTokens: 5, completionTokens: 2, estimated: false },
    timings: { ttftS: null, e2eS: 0.5, modelS: 0.45, overheadS: 0.05, chunks: 1, meanItlS: null },
  };
}

const NO_APPEND: Appendable = {
  appender: () => {
    throw new Error('nothing is appended in these tests');
  },
};

async function wired(yaml: string | null, extra: Partial<Parameters<typeof wireQuality>[0]> = {}) {
  const t = tempDir('quality-wiring');
  cleanups.push(t.remove);
  const configFile = path.join(t.dir, 'config.yml');
  if (yaml !== null) writeFileSync(configFile, yaml);
  const parts = testQualityParts();
  const timers = new FakeTimers(T0);
  const opened: SampleStoreOpenOptions[] = [];
  const logger = new MemoryLogger();
  const metrics = new RecordingMetrics();
  const q = await wireQuality(
    { ...parts.options, defaults: undefined, openStore: async (o) => (opened.push(o), parts.store), timers, random: () => 0.5, ...extra },
    { configFile: yaml === null ? undefined : configFile, dataDir: t.dir, clock: timers.clock, logger, metrics: () => metrics },
  );
  cleanups.push(() => q.close());
  return { q, parts, timers, opened, configFile, dir: t.dir, logger, metrics };
}

describe('wireQuality', () => {
  it('is off without a quality section or defaults: no store, no samples, no source', async () => {
    const { q, opened } = await wired('scrape_configs: []\n');
    expect(q.enabled).toBe(false);
    await q.open(NO_APPEND);
    q.sampleSink.write(sample('hi'));
    expect(opened).toEqual([]);
    expect(q.source()).toBeNull();
  });

  it.each([
    ['every sample', 1, 2],
    ['half of them (the random draw is 0.5: below 0.6 passes)', 0.6, 2],
    ['none below the draw', 0.4, 0],
  ])('hands %s to the pipeline, redacted', async (_name, share, want) => {
    const { q, parts, opened, dir } = await wired(`quality:\n  sampling: ${share}\n  redact:\n    - {pattern: "\\\\d{3}-\\\\d{4}", replacement: "<phone>"}\n`);
    await q.open(NO_APPEND);
    expect(opened).toEqual([{ kind: 'pglite', dir: path.join(dir, 'quality', 'pglite') }]);
    expect(parts.store.migrated).toBe(true);
    q.sampleSink.write(sample('first'));
    q.sampleSink.write(sample('call 555-9876'));
    await parts.pipelines[0].drain();
    const found = await parts.store.find({});
    expect(found.length).toBe(want);
    for (const r of found) expect(r.pair.prompt).toBe('user: my number is <phone>');
    if (want > 0) expect(found.map((r) => r.pair.response).sort()).toEqual(['call <phone>', 'first']);
  });

  it('builds the judge from the section and the key file, and reports it in the status', async () => {
    const t = tempDir('quality-key');
    cleanups.push(t.remove);
    writeFileSync(path.join(t.dir, 'key'), 'sk-test\n');
    const made: unknown[] = [];
    const { q, parts } = await wired(`quality:\n  judge: {base_url: "http://127.0.0.1:1/v1", model: sim-judge, api_key_file: ${JSON.stringify(path.join(t.dir, 'key'))}, share: 0.5, token_budget_per_hour: 900}\n`, {
      createJudge: (o) => (made.push(o), { judge: () => Promise.reject(new Error('not called')) }),
    });
    await q.open(NO_APPEND);
    expect(made).toEqual([{ baseURL: 'http://127.0.0.1:1/v1', model: 'sim-judge', apiKey: 'sk-test', timeoutMs: 10_000 }]);
    expect(parts.pipelines[0].ports.judgeShare).toBe(0.5);
    const status = await q.source()?.status();
    expect(status).toEqual({
      store: { kind: 'memory', pairs: 0, evaluations: 0, bytes: 0, oldest: null },
      pipeline: { queued: 0, accepted: 0, dropped: 0, judgeBudgetLeft: 900 },
      sampling: 1,
      judge: { model: 'sim-judge', baseURL: 'http://127.0.0.1:1/v1', share: 0.5, tokenBudgetPerHour: 900 },
      retention: { maxAgeSeconds: 7 * 86_400, maxBytes: 1024 ** 3 },
      drift: false,
    });
  });

  it('reloads: new settings replace the pipeline; a broken file keeps the last good ones', async () => {
    const { q, parts, configFile } = await wired('quality:\n  sampling: 1\n');
    await q.open(NO_APPEND);
    writeFileSync(configFile, 'quality:\n  sampling: 0\n');
    await q.reload();
    expect(parts.pipelines.length).toBe(2);
    q.sampleSink.write(sample('dropped by the new share'));
    writeFileSync(configFile, 'quality:\n  sampling: 7\n');
    await expect(q.reload()).rejects.toThrow(`${configFile}:2:13: quality.sampling: want a share between 0 and 1, got "7"`);
    expect((await q.source()?.status())?.sampling).toBe(0);
    expect(parts.pipelines[1].accepted).toBe(0);
  });

  it('runs retention on its timer, by age', async () => {
    const { q, parts, timers } = await wired('quality:\n  retention: {max_age: 1h}\n', { retentionIntervalMs: 60_000 });
    await q.open(NO_APPEND);
    await parts.store.putPairs([testPair('old', T0 - 2 * 3600_000), testPair('new', T0 + 30 * 60_000)]);
    q.start(NO_APPEND, {} as never);
    await flushAsync();
    expect((await parts.store.find({})).map((r) => r.pair.id)).toEqual(['new']);
    await timers.advance(2 * 3600_000);
    await flushAsync();
    expect(await parts.store.find({})).toEqual([]);
  });

  it('a store that cannot open leaves quality unavailable, logged', async () => {
    const { q, logger } = await wired('quality:\n  sampling: 1\n', { openStore: () => Promise.reject(new Error('disk full')) });
    await q.open(NO_APPEND);
    expect(q.source()).toBeNull();
    expect(logger.lines.some((l) => l.fields.err === 'disk full')).toBe(true);
  });

  it('refuses redaction rules it cannot compile (nothing is stored unredacted)', async () => {
    await expect(wired('quality:\n  redact: [{pattern: x}]\n', { compileRedaction: undefined })).rejects.toThrow(/cannot compile redaction rules/);
  });
});

describe('quality in startServer', () => {
  it('takes a quality section beside scrape_configs, and refuses a broken one with file:line:column', async () => {
    const t = tempDir('quality-serve');
    cleanups.push(t.remove);
    const configFile = path.join(t.dir, 'config.yml');
    const base = { listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' as const } }, logger: new MemoryLogger(), clock: () => T0, ui: false as const };
    writeFileSync(configFile, 'scrape_configs: []\nquality:\n  sampling: 0.5\n');
    const parts = testQualityParts();
    const server = await startServer({ ...base, scrape: { configFile }, quality: { ...parts.options, defaults: undefined } });
    cleanups.push(() => server.close());
    await server.ready;
    const res = await fetch(`http://127.0.0.1:${server.http.address.port}/api/v1/quality/status`);
    expect(((await res.json()) as { data: { sampling: number } }).data.sampling).toBe(0.5);
    writeFileSync(configFile, 'scrape_configs: []\nquality:\n  store: {kind: mysql}\n');
    await expect(startServer({ ...base, listen: '127.0.0.1:0', scrape: { configFile }, quality: parts.options })).rejects.toThrow(`${configFile}:3:17: quality.store.kind: unknown store kind "mysql"; want pglite or postgres`);
  });

  it('replays drift over the backfill after the rules, then starts it live, and feeds it the gateway samples', async () => {
    const t = tempDir('quality-replay');
    cleanups.push(t.remove);
    const parts = testQualityParts();
    const server = await startServer({
      listen: '127.0.0.1:0',
      storage: { dir: t.dir, fsync: { mode: 'never' } },
      logger: new MemoryLogger(),
      clock: () => T0,
      ui: false,
      backfill: { description: 'nothing', run: async () => undefined, rulesFromMs: T0 - 3600_000 },
      quality: parts.options,
    });
    cleanups.push(() => server.close());
    await server.ready;
    expect(parts.drift.replays.length).toBe(1);
    expect(parts.drift.replays[0][1]).toBe(T0);
    // Drift goes live once the sample store is open, after /-/ready.
    await vi.waitFor(() => expect(parts.drift.started).toBe(1));
    await server.close();
    expect(parts.drift.stopped).toBe(1);
    expect(parts.store.closed).toBe(true);
  });
});
