/**
 * The notifier against the real `prometheus-alertmanager` (Debian's 0.25) on loopback: it
 * receives Infersight's alerts through API v2, groups them into webhook notifications, and
 * resolves them; with a second, unreachable Alertmanager configured the live one still gets
 * everything. Then hostile fake Alertmanagers (silent, 500, garbage, an endless body) on loopback:
 * every answer costs a bounded amount of time and memory, and the notifier carries on.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Labels, MemoryLogger, systemClock, type UnixMs } from '../../src/model/index.js';
import { FakeTimers } from '../../src/model/testing/fake-timers.js';
import { parseYamlDocument } from '../../src/config/index.js';
import { Notifier, labelsFingerprint, parseAlertingConfig, type Alert, type NotifierOptions } from '../../src/rules/index.js';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, itWithPeer, startAlertmanager as startAlertmanagerPeer, startReadyPeer, waitFor } from '../peers/peers.js';

const cleanups = useCleanups();

/** A loopback HTTP server; `handler` answers each request; closed after the test. */
async function serve(handler: http.RequestListener): Promise<{ base: string; port: number; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { base: `http://127.0.0.1:${port}`, port, server };
}

interface WebhookMessage {
  status: string;
  receiver: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  alerts: { status: string; labels: Record<string, string>; fingerprint: string; generatorURL: string }[];
}

/** The test's webhook receiver: every notification Alertmanager (or Infersight) posts to it. */
async function webhookReceiver(): Promise<{ url: string; messages: WebhookMessage[] }> {
  const messages: WebhookMessage[] = [];
  const { base } = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      messages.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookMessage);
      res.end('ok');
    });
  });
  return { url: `${base}/hook`, messages };
}

/** Starts Alertmanager with one route to `hookUrl` (test/peers/peers.ts `startAlertmanager`). */
async function startAlertmanager(binary: string, hookUrl: string): Promise<string> {
  const t = tempDir('interop-am');
  cleanups.push(t.remove);
  const config =
    [
      'route:',
      '  receiver: hook',
      '  group_by: [alertname]',
      '  group_wait: 100ms',
      '  group_interval: 500ms',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: hook',
      '    webhook_configs:',
      `      - url: ${hookUrl}`,
      '        send_resolved: true',
      '',
    ].join('\n');
  const am = await startAlertmanagerPeer(binary, config, t.dir);
  cleanups.push(am.stop);
  return am.base;
}

const alerting = (yaml: string) => parseAlertingConfig(parseYamlDocument(yaml).struct('c', ['alerting']).alerting, '/');

/** A notifier on the real HTTP port and real timers (nothing here waits for a timer but the retry of the down-Alertmanager case). */
async function notifier(yaml: string, externalLabels = Labels.EMPTY, o: Partial<NotifierOptions> = {}): Promise<Notifier> {
  const n = new Notifier({ logger: new MemoryLogger(), ...o });
  cleanups.push(() => n.stop());
  await n.applyConfig(alerting(yaml), externalLabels);
  return n;
}

function alert(name: string, labels: Record<string, string>, startsAt: UnixMs, endsAt: UnixMs): Alert {
  return { labels: Labels.from({ alertname: name, ...labels }), annotations: Labels.from({ summary: `${name} on ${labels.instance ?? '-'}` }), startsAt, endsAt, generatorURL: 'http://infersight:9090/graph' };
}

interface AmAlert {
  labels: Record<string, string>;
  fingerprint: string;
  status: { state: string };
}

const amAlerts = async (base: string): Promise<AmAlert[]> => (await (await fetch(`${base}/api/v2/alerts`)).json()) as AmAlert[];

describe('interop: the real Alertmanager receives, groups and resolves Infersight alerts', () => {
  itWithPeer('alerts arrive through API v2, are grouped by alertname, and resolve', 'prometheus-alertmanager', async (binary) => {
    const hook = await webhookReceiver();
    const am = await startAlertmanager(binary, hook.url);
    const n = await notifier(`alerting:\n  alertmanagers:\n  - static_configs: [{targets: ["${am.replace('http://', '')}"]}]`, Labels.from({ cluster: 'eu-1' }));
    const now = systemClock();
    const firing = [
      alert('HighTTFT', { instance: 'vllm-0', severity: 'page' }, now - 60_000, now + 240_000),
      alert('HighTTFT', { instance: 'vllm-1', severity: 'page' }, now - 60_000, now + 240_000),
      alert('KvCacheHigh', { instance: 'vllm-0' }, now - 30_000, now + 240_000),
    ];
    n.send(firing);

    const groups = await waitFor('two firing notifications', async () => {
      const f = hook.messages.filter((m) => m.status === 'firing');
      return f.length >= 2 ? f : undefined;
    });
    const ttft = groups.find((m) => m.groupLabels.alertname === 'HighTTFT');
    expect(ttft?.alerts.map((a) => a.labels.instance).sort()).toEqual(['vllm-0', 'vllm-1']);
    expect(ttft?.commonLabels).toEqual({ alertname: 'HighTTFT', cluster: 'eu-1', severity: 'page' });
    expect(groups.find((m) => m.groupLabels.alertname === 'KvCacheHigh')?.alerts.length).toBe(1);

    // Alertmanager keeps the labels and agrees with our fingerprint.
    const stored = await amAlerts(am);
    expect(stored.length).toBe(3);
    for (const a of stored) {
      expect(a.status.state).toBe('active');
      expect(a.labels.cluster).toBe('eu-1');
      expect(a.fingerprint).toBe(labelsFingerprint(Labels.from(a.labels)));
    }

    // Resolving: the same alerts with endsAt in the past.
    const resolvedAt = systemClock() - 1000;
    n.send(firing.slice(0, 2).map((a) => ({ ...a, endsAt: resolvedAt })));
    const resolved = await waitFor('a resolved HighTTFT notification', async () => hook.messages.find((m) => m.status === 'resolved' && m.groupLabels.alertname === 'HighTTFT'));
    expect(resolved.alerts.map((a) => a.status)).toEqual(['resolved', 'resolved']);
    const left = await waitFor('only KvCacheHigh left active', async () => {
      const a = await amAlerts(am);
      return a.length === 1 ? a : undefined;
    });
    expect(left[0].labels.alertname).toBe('KvCacheHigh');
    expect(n.stats().destinations[0]).toMatchObject({ sent: 5, errors: 0, dropped: 0 });
  });

  itWithPeer('with a second Alertmanager down, the live one still gets everything', 'prometheus-alertmanager', async (binary) => {
    const hook = await webhookReceiver();
    const am = await startAlertmanager(binary, hook.url);
    const downPort = await freePort();
    const n = await notifier(`alerting:\n  alertmanagers:\n  - static_configs: [{targets: ["127.0.0.1:${downPort}", "${am.replace('http://', '')}"]}]`);
    const now = systemClock();
    n.send(Array.from({ length: 300 }, (_, i) => alert('Many', { instance: `i-${i}` }, now, now + 240_000)));
    const stored = await waitFor('300 alerts in the live Alertmanager', async () => {
      const a = await amAlerts(am);
      return a.length === 300 ? a : undefined;
    });
    expect(stored.length).toBe(300);
    const down = await waitFor('the down Alertmanager failing', async () => {
      const d = n.stats().destinations.find((s) => s.url.includes(String(downPort)));
      return d !== undefined && d.errors > 0 ? d : undefined;
    });
    expect(down.lastError).toContain('ECONNREFUSED');
    expect(down.backoffMs).toBeGreaterThan(0);
    expect(down.sent).toBe(0);
    expect(n.stats().destinations.find((s) => s.url.startsWith(am))).toMatchObject({ sent: 300, errors: 0 });
  });
});

describe('interop: /api/v1/alertmanagers agrees with Prometheus 2.42', () => {
  itWithPeer('the same alerting: section discovers the same active and dropped Alertmanagers', 'prometheus', async (prometheus) => {
    const t = tempDir('interop-am-discovery');
    cleanups.push(t.remove);
    fs.writeFileSync(path.join(t.dir, 'am.json'), JSON.stringify([{ targets: ['fs1:9093', 'fs2:9093'], labels: { dc: 'us' } }, { targets: ['fs3:9093'], labels: { dc: 'eu' } }]));
    const yaml = [
      'alerting:',
      '  alertmanagers:',
      "  - static_configs: [{targets: ['a:9093', 'a:9093', 'b:9093']}]",
      '    path_prefix: /pre/',
      '  - scheme: https',
      "    file_sd_configs: [{files: ['am.json']}]",
      '    relabel_configs:',
      "    - {action: drop, source_labels: [__address__], regex: 'fs2:.*'}",
      "    - {source_labels: [dc], target_label: __alerts_path__, regex: eu, replacement: /eu/api/v2/alerts}",
      '',
    ].join('\n');
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(config, yaml);
    const port = await freePort();
    const prom = await startReadyPeer(
      'prometheus',
      prometheus,
      [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      `http://127.0.0.1:${port}/-/ready`,
    );
    cleanups.push(prom.stop);
    type Data = { activeAlertmanagers: { url: string }[]; droppedAlertmanagers: { url: string }[] };
    const sorted = (d: Data) => ({ active: d.activeAlertmanagers.map((a) => a.url).sort(), dropped: d.droppedAlertmanagers.map((a) => a.url).sort() });
    // Prometheus' notifier takes discovery updates every 5 s: poll until both entries are in.
    const want = await waitFor('Prometheus to discover its Alertmanagers', async () => {
      const body = (await (await fetch(`http://127.0.0.1:${port}/api/v1/alertmanagers`)).json()) as { data: Data };
      return body.data.activeAlertmanagers.length >= 4 ? sorted(body.data) : undefined;
    });
    const n = new Notifier({ logger: new MemoryLogger() });
    cleanups.push(() => n.stop());
    await n.applyConfig(parseAlertingConfig(parseYamlDocument(yaml).struct('c', ['alerting']).alerting, t.dir), Labels.EMPTY);
    expect(sorted(n.alertmanagers() as Data)).toEqual(want);
    expect(want.dropped).toEqual(['https://fs2:9093/api/v2/alerts']);
  });
});

describe('interop: hostile Alertmanagers cost bounded time and memory', () => {
  /** A notifier on fake timers (the timeout and retries move only when the test says so) and the real HTTP port. */
  async function hostile(url: string, timeout = '5s') {
    const timers = new FakeTimers(Date.UTC(2026, 0, 1));
    const n = await notifier(`alerting:\n  alertmanagers:\n  - timeout: ${timeout}\n    static_configs: [{targets: ["${url}"]}]`, Labels.EMPTY, { timers, clock: timers.clock });
    n.send([alert('A', { instance: 'x' }, timers.now, timers.now + 240_000)]);
    const stats = () => n.stats().destinations[0];
    return { n, timers, stats };
  }

  it('an Alertmanager that never answers is cut at the timeout, and the batch is kept for a retry', async () => {
    let requests = 0;
    let closed = 0;
    const { port } = await serve((req) => {
      requests++;
      req.socket.on('close', () => closed++);
    });
    const { timers, stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('the request at the silent server', async () => (requests === 1 ? true : undefined));
    await timers.advance(5000);
    await waitFor('the connection closed by the notifier', async () => (closed === 1 ? true : undefined));
    expect(stats()).toMatchObject({ errors: 1, queueLength: 1, sent: 0, lastError: `Post "http://127.0.0.1:${port}/api/v2/alerts": request timed out after 5000 ms` });
    expect(stats().backoffMs).toBeGreaterThan(0);
  });

  it('an answer whose body stalls after its headers is cut at the timeout too', async () => {
    let requests = 0;
    const { port } = await serve((req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
    });
    const { timers, stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('the stalled answer', async () => (requests === 1 ? true : undefined));
    await timers.advance(5000);
    await waitFor('the timeout', async () => (stats().errors === 1 ? true : undefined));
    expect(stats()).toMatchObject({ sent: 0, queueLength: 1, lastError: `Post "http://127.0.0.1:${port}/api/v2/alerts": request timed out after 5000 ms` });
  });

  it('a 500 is retried after the backoff and then delivered', async () => {
    const bodies: string[] = [];
    const { port } = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.statusCode = bodies.length === 1 ? 500 : 200;
        res.end(bodies.length === 1 ? 'internal trouble\nsecond line' : '');
      });
    });
    const { timers, stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('the 500', async () => (stats().errors === 1 ? true : undefined));
    expect(stats().lastError).toBe('bad response status 500 Internal Server Error: internal trouble');
    await timers.advance(1000);
    await waitFor('the retry delivered', async () => (stats().sent === 1 ? true : undefined));
    expect(bodies[0]).toBe(bodies[1]);
    expect(stats()).toMatchObject({ queueLength: 0, backoffMs: 0, dropped: 0 });
  });

  it.each([
    [307, true],
    [308, true],
    [302, false],
  ])('a %i redirect is followed with the same POST: %s', async (status, followed) => {
    const seen: string[] = [];
    const { port } = await serve((req, res) => {
      req.resume();
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/api/v2/alerts') res.writeHead(status, { Location: '/moved/api/v2/alerts' }).end();
      else res.writeHead(200).end();
    });
    const { stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('an outcome', async () => (stats().sent + stats().errors > 0 ? true : undefined));
    expect(seen).toEqual(followed ? ['POST /api/v2/alerts', 'POST /moved/api/v2/alerts'] : ['POST /api/v2/alerts']);
    // A 302 is an answer that will never be accepted: counted and dropped, not retried.
    expect(stats()).toMatchObject(followed ? { sent: 1, errors: 0 } : { sent: 0, errors: 1, dropped: 1, backoffMs: 0 });
  });

  it('garbage instead of HTTP is a transport error', async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.end('SMTP ready\r\n\r\n\x00\x01garbage');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    );
    const { port } = server.address() as net.AddressInfo;
    const { stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('the parse error', async () => (stats().errors === 1 ? true : undefined));
    expect(stats().lastError).toMatch(/^Post "http:\/\/127\.0\.0\.1:\d+\/api\/v2\/alerts": /);
    expect(stats()).toMatchObject({ queueLength: 1, sent: 0 });
  });

  it('an endless body is read for its first KiB only, then the connection is closed', async () => {
    let written = 0;
    let closed = false;
    const { port } = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!closed && res.write(chunk)) written += chunk.length;
        if (!closed) res.once('drain', pump);
      };
      res.on('close', () => (closed = true));
      pump();
    });
    const { stats } = await hostile(`127.0.0.1:${port}`);
    await waitFor('the delivery', async () => (stats().sent === 1 ? true : undefined));
    await waitFor('the server sees the connection closed', async () => (closed ? true : undefined));
    // The server got as far as the socket buffers let it; nothing near "endless".
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(stats()).toMatchObject({ errors: 0, queueLength: 0 });
  });
});

describe('interop: the generic webhook', () => {
  it("POSTs Alertmanager's webhook shape, one notification per batch", async () => {
    const hook = await webhookReceiver();
    const n = await notifier(`alerting:\n  infersight_webhooks:\n  - name: ops\n    url: ${hook.url}`, Labels.from({ cluster: 'eu-1' }), { externalURL: 'http://infersight:9090' });
    const now = systemClock();
    n.send([alert('A', { instance: 'x' }, now - 1000, now + 240_000), alert('B', { instance: 'x' }, now - 5000, now - 1000)]);
    const [m] = await waitFor('the notification', async () => (hook.messages.length === 1 ? hook.messages : undefined));
    expect(m).toMatchObject({ version: '4', status: 'firing', receiver: 'ops', groupLabels: {}, commonLabels: { cluster: 'eu-1', instance: 'x' }, externalURL: 'http://infersight:9090' });
    expect(m.alerts.map((a) => [a.labels.alertname, a.status, a.fingerprint])).toEqual([
      ['A', 'firing', labelsFingerprint(Labels.from({ alertname: 'A', cluster: 'eu-1', instance: 'x' }))],
      ['B', 'resolved', labelsFingerprint(Labels.from({ alertname: 'B', cluster: 'eu-1', instance: 'x' }))],
    ]);
    expect(n.stats().destinations[0]).toMatchObject({ kind: 'webhook', name: 'ops', sent: 2 });
  });
});
