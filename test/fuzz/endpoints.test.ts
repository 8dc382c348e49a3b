import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoCli, startServe, type RunningCli, type RunningDemoCli } from '../e2e/cli.js';
import { ENDPOINTS, type FuzzEndpoint } from './generators.js';
import { FUZZ_RUNS, FUZZ_SEED, batch, noUndocumented5xx, rssBytes, run, send, type Failure } from './harness.js';

/**
 * The shared fuzz harness (issue 14): seeded hostile input over every endpoint of the whole
 * process (the built CLI), on the demo (store, query API, federation, static UI, simulator fault
 * API, gateway) and on a `serve` with a tokens file (the auth-guarded variants). Each endpoint gets
 * FUZZ_RUNS cases (300; `FUZZ_RUNS=5000` for a long run) from FUZZ_SEED (random, printed;
 * `FUZZ_SEED=n` repeats a run). Passing: every request answers within the hang budget with a 4xx,
 * a 2xx (valid input) or a 5xx the endpoint documents; `/-/healthy` answers after each batch; and
 * the process' RSS at the end stays under RSS_BOUND.
 */

/**
 * The memory bound at the end of the run: the demo (fleet, store, UI) takes about 100 MiB here;
 * ten times that leaves room for caches and the garbage collector's slack, while a leak or an
 * unbounded buffer of the kind issue 14 found (gigabytes) goes over it.
 */
const RSS_BOUND = 1024 ** 3;

// eslint-disable-next-line no-console
console.log(`fuzz: seed ${FUZZ_SEED}, ${FUZZ_RUNS} cases per endpoint (FUZZ_SEED=${FUZZ_SEED} repeats this run)`);

/** A seed per endpoint, so that adding one does not change the inputs of the others. */
const seedOf = (e: FuzzEndpoint, salt = 0): number => (FUZZ_SEED + salt + crypto.createHash('sha256').update(e.name).digest().readInt32LE(0)) | 0;
const report = (failures: Failure[]): string => failures.slice(0, 10).map((f) => `${f.endpoint}: ${f.request}\n  → ${f.outcome}`).join('\n');

/** Resolves with the gateway's base URL once the demo's banner names it. */
function gatewayUrl(demo: RunningDemoCli): Promise<string> {
  const find = () => /OpenAI-compatible gateway: (http:\/\/[\d.]+:\d+)\/v1/.exec(demo.stdout())?.[1];
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const url = find();
      if (url !== undefined) {
        demo.child.stdout?.off('data', check);
        resolve(url);
      }
    };
    demo.child.stdout?.on('data', check);
    void demo.exited.then(() => reject(new Error('the demo exited before printing its gateway')));
    check();
  });
}

async function healthy(base: string, headers: Record<string, string> = {}): Promise<number> {
  const o = await send(base, { method: 'GET', path: '/-/healthy', headers }, headers, 30_000);
  return 'status' in o ? o.status : -2;
}

describe('fuzz: every endpoint of the demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-fuzz-'));
  let demo: RunningDemoCli;
  const bases: Record<string, string> = {};

  beforeAll(async () => {
    demo = await startDemoCli(['--data', dir, '--history', '10m', '--gateway.listen', '127.0.0.1:0', '--gateway.share', '0', '--log-level', 'error']);
    bases.main = demo.base;
    bases.gateway = await gatewayUrl(demo);
  }, 120_000);
  afterAll(async () => {
    await demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(ENDPOINTS.map((e) => [e.name, e] as const))('%s: only 4xx or documented answers, no hang, still healthy', async (_name, e) => {
    const { failures, statuses } = await run(e, bases[e.listener], batch(e, seedOf(e)), noUndocumented5xx(e));
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${e.name}: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    // eslint-disable-next-line no-console
    if (failures.length > 0) console.log(`fuzz: ${failures.length} failures of ${e.name}, the first:\n${report(failures)}`);
    expect(report(failures)).toBe('');
    expect(await healthy(bases.main)).toBe(200);
  }, 600_000);

  it('keeps its memory bounded and logged no crash', () => {
    const rss = rssBytes(demo.child.pid ?? 0);
    // eslint-disable-next-line no-console
    console.log(`fuzz: demo RSS after the run ${(rss / 1024 ** 2).toFixed(0)} MiB`);
    expect(rss).toBeLessThan(RSS_BOUND);
    expect(demo.child.exitCode).toBe(null);
  });
});

describe('fuzz: the auth-guarded variants (serve with a tokens file)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-fuzz-auth-'));
  const tokens = { read: 'fuzz-read-token-0123456789', write: 'fuzz-write-token-0123456789', admin: 'fuzz-admin-token-0123456789' } as const;
  const sha = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
  let serve: RunningCli & { stop?: () => Promise<number | null> };
  // The serve has no simulator and no gateway: the other endpoints.
  const guarded = ENDPOINTS.filter((e) => e.listener === 'main' && e.name !== 'sim fault API');

  beforeAll(async () => {
    const file = path.join(dir, 'tokens.yml');
    fs.writeFileSync(file, `tokens:\n${Object.entries(tokens).map(([s, t]) => `  - name: ${s}\n    sha256: ${sha(t)}\n    scopes: [${s}]\n`).join('')}`);
    serve = await startServe(['--data', path.join(dir, 'data'), '--web.tokens.file', file, '--otlp.listen', 'off']);
  }, 120_000);
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const KEYS: [name: string, headers: Record<string, string>, expected: (e: FuzzEndpoint) => number | null][] = [
    ['no key', {}, () => 401],
    ['a wrong token', { Authorization: 'Bearer not-a-token' }, () => 401],
    ['malformed basic', { Authorization: 'Basic !!!' }, () => 401],
    ['a token without the scope', { Authorization: `Bearer ${tokens.read}` }, (e) => (e.scope === 'read' ? null : 403)],
    ['a token with the scope', {}, () => null],
  ];

  it.each(guarded.flatMap((e) => KEYS.map(([k, h, want]) => [e.name, k, e, h, want] as const)))('%s with %s', async (_n, key, e, headers, want) => {
    const h = key === 'a token with the scope' ? { Authorization: `Bearer ${tokens[e.scope]}` } : headers;
    const expected = want(e);
    const runs = Math.max(20, Math.floor(FUZZ_RUNS / KEYS.length));
    const judge = expected === null ? noUndocumented5xx(e) : (o: { status: number }) => o.status === expected;
    const { failures } = await run(e, serve.base, batch(e, seedOf(e, 1), runs), judge, h);
    expect(report(failures)).toBe('');
    expect(await healthy(serve.base, { Authorization: `Bearer ${tokens.read}` })).toBe(200);
  }, 600_000);

  it('keeps its memory bounded', () => {
    expect(rssBytes(serve.child.pid ?? 0)).toBeLessThan(RSS_BOUND);
  });
});
