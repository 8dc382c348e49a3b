import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { allScraped, goldenConfig, normalizeTargets, readTargetsGolden } from '../../src/ingest/scrape/testing/targets-golden.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, waitFor } from '../peers/peers.js';
import { runCli, startServe, type RunningCli } from './cli.js';
import { startTinyTarget } from './scrape-targets-lib.js';

const cleanups = useCleanups();

interface Targets {
  data: { activeTargets: { scrapePool: string; health: string; lastError: string }[]; droppedTargets: unknown[] };
}
interface Vector {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

async function serve(config: string): Promise<{ cli: RunningCli; file: string }> {
  const t = tempDir('e2e-scrape');
  cleanups.push(t.remove);
  const file = path.join(t.dir, 'infersight.yml');
  fs.writeFileSync(file, config);
  const cli = await startServe(['--data', path.join(t.dir, 'data'), '--config.file', file, '--web.enable-lifecycle']);
  cleanups.push(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
  });
  return { cli, file };
}

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
const query = (base: string, q: string) => getJson<Vector>(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
const pools = async (base: string) => (await getJson<Targets>(`${base}/api/v1/targets`)).data.activeTargets.map((t) => t.scrapePool).sort();

describe('infersight serve --config.file (whole process)', () => {
  it('scrapes a loopback target, answers through /api/v1/query, and /api/v1/targets matches Prometheus 2.42', async () => {
    const target = await startTinyTarget();
    cleanups.push(target.close);
    const downPort = await freePort();
    const { cli } = await serve(goldenConfig(target.port, downPort));
    const body = await waitFor('every target scraped', async () => {
      const b = await getJson<unknown>(`${cli.base}/api/v1/targets`);
      return allScraped(b) ? b : undefined;
    });
    const port = Number(new URL(cli.base).port);
    expect(JSON.stringify(normalizeTargets(body, { TARGET_PORT: target.port, DOWN_PORT: downPort, SERVER_PORT: port }, os.hostname()), null, 2) + '\n').toBe(readTargetsGolden());

    const series = await waitFor('tiny_requests_total queryable', async () => {
      const r = await query(cli.base, 'tiny_requests_total');
      return r.data.result.length === 1 ? r.data.result[0] : undefined;
    });
    expect(series.metric).toEqual({ __name__: 'tiny_requests_total', code: '200', job: 'tiny', instance: `127.0.0.1:${target.port}`, az: 'z1', model: 'm1' });
    expect((await query(cli.base, 'up{job="tiny"}')).data.result[0].value[1]).toBe('1');
    expect((await query(cli.base, 'up{job="down"}')).data.result[0].value[1]).toBe('0');
    expect((await query(cli.base, 'scrape_samples_scraped{job="tiny"}')).data.result[0].value[1]).toBe('2');

    const md = await getJson<{ status: string; data: unknown[] }>(`${cli.base}/api/v1/targets/metadata?match_target=${encodeURIComponent('{job="tiny"}')}&metric=tiny_requests_total`);
    expect(md).toEqual({ status: 'success', data: [{ target: { az: 'z1', instance: `127.0.0.1:${target.port}`, job: 'tiny', model: 'm1' }, type: 'counter', help: 'Requests served.', unit: '' }] });
    const bad = await fetch(`${cli.base}/api/v1/targets/metadata?match_target=${encodeURIComponent('{job=')}`);
    expect([bad.status, ((await bad.json()) as { errorType: string }).errorType]).toEqual([400, 'bad_data']);
  }, 90_000);

  it('reloads on POST /-/reload and SIGHUP, keeping the old configuration when the new one is invalid', async () => {
    const target = await startTinyTarget();
    cleanups.push(target.close);
    const job = (name: string) => `scrape_configs:\n  - job_name: ${name}\n    scrape_interval: 1s\n    static_configs: [{targets: ['127.0.0.1:${target.port}']}]\n`;
    const { cli, file } = await serve(job('first'));
    expect(await pools(cli.base)).toEqual(['first']);

    fs.writeFileSync(file, job('second') + '    scrape_timeout: 5s\n');
    const failed = await fetch(`${cli.base}/-/reload`, { method: 'POST' });
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe(`failed to reload config: couldn't load configuration (--config.file=${JSON.stringify(file)}): parsing YAML file ${file}: line 2: scrape_configs[0]: scrape timeout greater than scrape interval for scrape config with job name "second"\n`);
    expect(await pools(cli.base)).toEqual(['first']);

    fs.writeFileSync(file, job('second'));
    expect((await fetch(`${cli.base}/-/reload`, { method: 'POST' })).status).toBe(200);
    expect(await pools(cli.base)).toEqual(['second']);

    fs.writeFileSync(file, job('third'));
    cli.child.kill('SIGHUP');
    await waitFor('SIGHUP reload', async () => ((await pools(cli.base)).join() === 'third' ? true : undefined));
    await waitFor('third scraped', async () => ((await query(cli.base, 'up{job="third"}')).data.result[0]?.value[1] === '1' ? true : undefined));
  }, 90_000);

  it('survives hostile targets: malformed exposition, a huge body, a target that never answers', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/bad') res.end('ok_before 1\nbroken{ 2\n');
      else if (req.url === '/huge') res.end('x 1\n'.repeat(1 << 20));
      // /slow: never answers.
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }));
    const addr = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const job = (name: string, extra: string) => `  - job_name: ${name}\n    metrics_path: /${name}\n${extra}    static_configs: [{targets: ['${addr}']}]\n`;
    // Only the target that never answers has a short timeout: on a loaded machine a 300 ms timeout
    // also ended the scrapes of /bad and /huge before their bodies were read (a wall-clock race).
    const { cli } = await serve(`global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n${job('bad', '')}${job('huge', '    body_size_limit: 64KB\n')}${job('slow', '    scrape_timeout: 300ms\n')}`);
    const errors = await waitFor('all three down', async () => {
      const t = (await getJson<Targets>(`${cli.base}/api/v1/targets`)).data.activeTargets;
      return t.length === 3 && t.every((x) => x.health === 'down') ? Object.fromEntries(t.map((x) => [x.scrapePool, x.lastError])) : undefined;
    });
    expect(errors.bad).toBe(`line 2, column 9: expected label name or '}', got "2"`);
    expect(errors.huge).toBe('body size limit exceeded');
    expect(errors.slow).toBe(`Get "http://${addr}/slow": context deadline exceeded`);
    // Nothing of a failed scrape is written, only the synthetic series.
    expect((await query(cli.base, 'ok_before')).data.result).toEqual([]);
    expect((await query(cli.base, 'x')).data.result).toEqual([]);
    expect((await query(cli.base, 'up')).data.result.map((r) => r.value[1])).toEqual(['0', '0', '0']);
    // A timed-out scrape still reports its duration. That it is the scrape timeout is pinned with
    // fake timers (src/ingest/scrape/loop.test.ts); here it is wall-clock time, so only its
    // presence is checked, never its size.
    const slow = (await query(cli.base, 'scrape_duration_seconds{job="slow"}')).data.result;
    expect(slow).toHaveLength(1);
    expect(Number(slow[0].value[1])).toBeGreaterThan(0);
  }, 90_000);

  it('default limits: 13 hostile targets (gzip bombs, a million series, 40,000 labels, endless bodies) fail at their limits while a healthy target beside them stays up', async () => {
    const healthy = await startTinyTarget();
    cleanups.push(healthy.close);
    const MiB = 1024 * 1024;
    const member = gzipSync(Buffer.alloc(MiB, 0x0a), { level: 9 });
    const wide = Buffer.from(`wide{${Array.from({ length: 40_000 }, (_, i) => `l${40_000 - i}="v"`).join(',')}} 1\n`);
    /** Writes `count` chunks from `next`, waiting for the socket to drain (a client that stops reading stops it). */
    const stream = async (res: http.ServerResponse, count: number, next: (i: number) => Buffer) => {
      for (let i = 0; i < count && !res.destroyed; i++) {
        if (res.write(next(i))) continue;
        await new Promise<void>((r) => {
          const go = () => {
            res.off('drain', go).off('close', go);
            r();
          };
          res.on('drain', go).on('close', go);
        });
      }
      res.end();
    };
    const server = http.createServer((req, res) => {
      const kind = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
      res.on('error', () => undefined);
      if (kind === 'bomb') {
        // 400 gzip members of 1 MiB of newlines: 400 MiB decoded.
        res.writeHead(200, { 'Content-Encoding': 'gzip' });
        void stream(res, 400, () => member);
      } else if (kind === 'million') {
        res.writeHead(200);
        void stream(res, 1_000_000 / 4096, (i) => Buffer.from(Array.from({ length: 4096 }, (_, j) => `hostile_series_${i * 4096 + j} 1\n`).join('')));
      } else if (kind === 'wide') res.end(wide);
      else if (kind === 'endless') {
        res.writeHead(200);
        void stream(res, 4096, () => Buffer.alloc(64 * 1024, 0x79)); // 256 MiB without a newline
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }));
    const addr = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const kinds = ['bomb', 'bomb', 'bomb', 'bomb', 'million', 'million', 'wide', 'wide', 'wide', 'endless', 'endless', 'endless', 'bomb'];
    const groups = kinds.map((k, i) => `{targets: ['${addr}'], labels: {__metrics_path__: /${k}, n: '${i}'}}`).join(', ');
    const { cli } = await serve(`global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n  - job_name: healthy\n    static_configs: [{targets: ['127.0.0.1:${healthy.port}']}]\n  - job_name: hostile\n    static_configs: [${groups}]\n`);
    // Until every hostile target has failed three times, each time the healthy one must have been up.
    const failures = new Map<string, number>();
    await waitFor('three failed scrapes of every hostile target', async () => {
      const t = (await getJson<{ data: { activeTargets: { labels: Record<string, string>; health: string; lastError: string; lastScrape: string }[] } }>(`${cli.base}/api/v1/targets`)).data.activeTargets;
      for (const x of t) {
        if (x.labels.job === 'healthy') {
          expect(x.health, x.lastError).not.toBe('down');
          continue;
        }
        if (x.health !== 'down') continue;
        const kind = kinds[Number(x.labels.n)];
        const want = { bomb: 'body size limit exceeded', million: 'sample limit exceeded', wide: 'label_limit exceeded (metric: wide, number of labels: more than 64, limit: 64)', endless: 'body size limit exceeded' }[kind];
        // A loaded machine may time a scrape out first; never may a hostile body be accepted.
        expect([want, `Get "http://${addr}/${kind}": context deadline exceeded`]).toContain(x.lastError);
        failures.set(`${x.labels.n} ${x.lastScrape}`, Number(x.labels.n));
      }
      return kinds.every((_, n) => [...failures.values()].filter((v) => v === n).length >= 3) ? true : undefined;
    }, 80_000);
    // The healthy target's samples kept arriving, every scrape up.
    const up = await query(cli.base, 'min_over_time(up{job="healthy"}[1m])');
    expect(up.data.result.map((r) => r.value[1])).toEqual(['1']);
    const scrapes = Number((await query(cli.base, 'count_over_time(tiny_requests_total{job="healthy"}[1m])')).data.result[0]?.value[1] ?? 0);
    expect(scrapes).toBeGreaterThanOrEqual(3);
    // Nothing of the hostile bodies was stored.
    expect((await query(cli.base, '{__name__=~"hostile_series_.*|wide"}')).data.result).toEqual([]);
    // Bounded memory: the server's peak resident set stays under 1 GiB (measured: about 380 MiB),
    // where reading each bomb whole would take 400 MiB of bytes and 800 MiB of string per target.
    const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${cli.child.pid}/status`, 'utf8'));
    if (hwm !== null) expect(Number(hwm[1]) * 1024).toBeLessThan(1024 * MiB);
  }, 120_000);

  it('refuses to start on an invalid configuration file', async () => {
    const t = tempDir('e2e-scrape-bad');
    cleanups.push(t.remove);
    const file = path.join(t.dir, 'bad.yml');
    fs.writeFileSync(file, 'scrape_configs:\n  - job_name: a\n    scrape_intervall: 1s\n');
    const { code, stderr } = await runCli(['serve', '--listen', '127.0.0.1:0', '--data', path.join(t.dir, 'data'), '--config.file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`msg="error loading config" file=${file}`);
    expect(stderr).toContain('line 3: field scrape_intervall not found in type config.ScrapeConfig');
  });
});
