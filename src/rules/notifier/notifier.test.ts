import { afterEach, describe, expect, it } from 'vitest';
import { Labels, MemoryLogger, type UnixMs } from '../../model/index.js';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import { parseYamlDocument } from '../../config/index.js';
import type { Alert } from '../types.js';
import { parseAlertingConfig } from './config.js';
import { Notifier, type NotifierOptions } from './notifier.js';
import { fakePost, type FakeAnswer } from './testing/fake-post.js';
import type { NotifyRequest } from './http-post.js';

const T0: UnixMs = Date.UTC(2026, 11, 1, 12, 0, 0, 0);
const AM1 = 'http://am1:9093/api/v2/alerts';
const AM2 = 'http://am2:9093/api/v2/alerts';

/** A firing alert (endsAt 4 m ahead, as the evaluator sends them) or, with `resolvedAt`, a resolved one. */
function alert(name: string, labels: Record<string, string> = {}, o: { startsAt?: UnixMs; endsAt?: UnixMs; annotations?: Record<string, string> } = {}): Alert {
  return {
    labels: Labels.from({ alertname: name, ...labels }),
    annotations: Labels.from(o.annotations ?? {}),
    startsAt: o.startsAt ?? T0,
    endsAt: o.endsAt ?? T0 + 240_000,
    generatorURL: `http://infersight:9090/graph?g0.expr=${name}`,
  };
}

const alerting = (yaml: string) => parseAlertingConfig(parseYamlDocument(yaml).struct('config.Config', ['alerting']).alerting, '/etc/infersight');
const TWO_AMS = 'alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093, am2:9093]}]';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

/** A notifier on fake timers and a fake HTTP port, configured from `yaml`. */
async function setup(yaml: string, answer?: (req: NotifyRequest, nth: number) => FakeAnswer, o: Partial<NotifierOptions> = {}, externalLabels = Labels.EMPTY) {
  const timers = new FakeTimers(T0);
  const fake = fakePost(timers.clock, answer);
  const logger = new MemoryLogger();
  const n = new Notifier({ logger, clock: timers.clock, timers, post: fake.post, readFile: () => Promise.reject(new Error('no files')), ...o });
  stops.push(() => n.stop());
  await n.applyConfig(alerting(yaml), externalLabels);
  return { n, timers, fake, logger };
}

/** The alertnames of every alert in the bodies POSTed to `url`. */
const namesSent = (calls: { body: unknown }[]) => calls.flatMap((c) => (c.body as { labels: Record<string, string> }[]).map((a) => a.labels.alertname));

describe('Notifier: the Alertmanager API v2 request', () => {
  it('POSTs a JSON array of PostableAlerts to {scheme}://{address}{path_prefix}/api/v2/alerts', async () => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - scheme: https\n    path_prefix: /am/\n    static_configs: [{targets: [am1:9093]}]');
    n.send([
      alert('HighLatency', { severity: 'page' }, { annotations: { summary: 'p99 up' }, startsAt: T0 + 1, endsAt: T0 + 240_123 }),
      { ...alert('NoAnnotations'), generatorURL: '' },
    ]);
    await timers.advance(0);
    expect(fake.calls.map((c) => c.url)).toEqual(['https://am1:9093/am/api/v2/alerts']);
    expect(fake.calls[0].headers).toMatchObject({ 'Content-Type': 'application/json', 'User-Agent': 'Infersight' });
    expect(fake.calls[0].body).toEqual([
      {
        labels: { alertname: 'HighLatency', severity: 'page' },
        annotations: { summary: 'p99 up' },
        startsAt: '2026-12-01T12:00:00.001Z',
        endsAt: '2026-12-01T12:04:00.123Z',
        generatorURL: 'http://infersight:9090/graph?g0.expr=HighLatency',
      },
      // Empty annotations and generatorURL are left out, as Prometheus' encoder (omitempty) does.
      { labels: { alertname: 'NoAnnotations' }, startsAt: '2026-12-01T12:00:00.000Z', endsAt: '2026-12-01T12:04:00.000Z' },
    ]);
    expect(n.stats().destinations[0]).toMatchObject({ kind: 'alertmanager', url: 'https://am1:9093/am/api/v2/alerts', sent: 2, errors: 0, dropped: 0, queueLength: 0, latencyCount: 1 });
  });

  it('sends every batch to every Alertmanager of every entry', async () => {
    const { n, timers, fake } = await setup(`${TWO_AMS}\n  - static_configs: [{targets: [am3:9093]}]\n    path_prefix: /x`);
    n.send([alert('A'), alert('B')]);
    await timers.advance(0);
    expect(fake.calls.map((c) => [c.url, namesSent([c])]).sort()).toEqual([
      [AM1, ['A', 'B']],
      [AM2, ['A', 'B']],
      ['http://am3:9093/x/api/v2/alerts', ['A', 'B']],
    ]);
    expect(n.alertmanagers()).toEqual({
      activeAlertmanagers: [{ url: AM1 }, { url: AM2 }, { url: 'http://am3:9093/x/api/v2/alerts' }],
      droppedAlertmanagers: [],
    });
    expect(n.stats().alertmanagersDiscovered).toBe(3);
  });
});

describe('Notifier: credentials and TLS from the HTTP client fields', () => {
  it.each<[string, string, Record<string, string>]>([
    ['basic_auth with a password file', 'basic_auth: {username: u, password_file: pw}', { Authorization: `Basic ${Buffer.from('u:secret').toString('base64')}` }],
    ['bearer_token_file', 'bearer_token_file: tok', { Authorization: 'Bearer file-token' }],
    ['authorization with a type', 'authorization: {type: Token, credentials: abc}', { Authorization: 'Token abc' }],
  ])('%s', async (_name, fields, headers) => {
    const files: Record<string, string> = { '/etc/infersight/pw': 'secret\n', '/etc/infersight/tok': 'file-token' };
    const { n, timers, fake } = await setup(`alerting:\n  alertmanagers:\n  - ${fields}\n    static_configs: [{targets: [am1:9093]}]`, undefined, {
      readFile: (f) => (f in files ? Promise.resolve(files[f]) : Promise.reject(new Error(`no ${f}`))),
    });
    n.send([alert('A')]);
    await timers.advance(0);
    expect(fake.calls[0].headers).toMatchObject(headers);
  });

  it('passes the TLS files and settings to the port, read for every request', async () => {
    const tlsSeen: unknown[] = [];
    const files: Record<string, string> = { '/etc/infersight/ca.pem': 'CA1' };
    const timers = new FakeTimers(T0);
    const fake = fakePost(timers.clock, (req) => {
      tlsSeen.push(req.tls);
      return 200;
    });
    const n = new Notifier({ logger: new MemoryLogger(), clock: timers.clock, timers, post: fake.post, readFile: (f) => Promise.resolve(files[f]) });
    stops.push(() => n.stop());
    await n.applyConfig(alerting('alerting:\n  alertmanagers:\n  - scheme: https\n    tls_config: {ca_file: ca.pem, server_name: am.internal, insecure_skip_verify: true}\n    static_configs: [{targets: [am1:9093]}]'), Labels.EMPTY);
    n.send([alert('A')]);
    await timers.advance(0);
    files['/etc/infersight/ca.pem'] = 'CA2';
    n.send([alert('B')]);
    await timers.advance(0);
    expect(tlsSeen).toEqual([
      { ca: 'CA1', cert: undefined, key: undefined, servername: 'am.internal', rejectUnauthorized: false },
      { ca: 'CA2', cert: undefined, key: undefined, servername: 'am.internal', rejectUnauthorized: false },
    ]);
  });

  it('a credentials file that cannot be read fails the request as transient', async () => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - bearer_token_file: missing\n    static_configs: [{targets: [am1:9093]}]');
    n.send([alert('A')]);
    await timers.advance(0);
    expect(fake.calls).toEqual([]);
    expect(n.stats().destinations[0]).toMatchObject({ errors: 1, queueLength: 1 });
    expect(n.stats().destinations[0].lastError).toContain('unable to read authorization credentials file /etc/infersight/missing');
  });
});

describe('Notifier: external labels and alert_relabel_configs', () => {
  const ext = Labels.from({ cluster: 'eu-1', replica: 'r0' });
  it.each([
    ['external labels are added', '', { alertname: 'A' }, { alertname: 'A', cluster: 'eu-1', replica: 'r0' }],
    ['an alert label wins over an external one', '', { alertname: 'A', cluster: 'mine' }, { alertname: 'A', cluster: 'mine', replica: 'r0' }],
    ['relabeling sees the external labels', '[{action: labeldrop, regex: replica}]', { alertname: 'A' }, { alertname: 'A', cluster: 'eu-1' }],
    ['relabeling rewrites', '[{source_labels: [alertname], target_label: name, replacement: "x-$1"}]', { alertname: 'A' }, { alertname: 'A', cluster: 'eu-1', name: 'x-A', replica: 'r0' }],
    ['drop removes the alert', '[{action: drop, source_labels: [alertname], regex: A}]', { alertname: 'A' }, null],
    ['relabeled to no labels at all, the alert is not sent', '[{action: labelkeep, regex: none}]', { alertname: 'A' }, null],
  ])('%s', async (_name, rules, labels, want) => {
    const yaml = `alerting:\n  alert_relabel_configs: ${rules || '[]'}\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]`;
    const { n, timers, fake } = await setup(yaml, undefined, {}, ext);
    n.send([{ ...alert('A'), labels: Labels.from(labels) }]);
    await timers.advance(0);
    if (want === null) {
      expect(fake.calls).toEqual([]);
      expect(n.stats().relabelDropped).toBe(1);
    } else {
      expect((fake.calls[0].body as { labels: unknown }[])[0].labels).toEqual(want);
    }
  });
});

describe('Notifier: batching and the queue', () => {
  it.each([
    [600, undefined, [256, 256, 88]],
    [256, undefined, [256]],
    [250, 100, [100, 100, 50]],
    [1, 1, [1]],
  ])('%i alerts with max_batch_size %s go out as %j', async (count, maxBatchSize, sizes) => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', undefined, { maxBatchSize });
    n.send(Array.from({ length: count }, (_, i) => alert(`A${i}`)));
    await timers.advance(0);
    expect(fake.calls.map((c) => (c.body as unknown[]).length)).toEqual(sizes);
  });

  it('alerts handed over in the same turn share a batch', async () => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]');
    n.send([alert('A')]);
    n.send([alert('B')]);
    await timers.advance(0);
    expect(fake.calls.map((c) => namesSent([c]))).toEqual([['A', 'B']]);
  });

  it('a full queue drops its oldest alerts and counts them', async () => {
    // The first request hangs until its timeout, so everything sent meanwhile queues.
    const { n, timers, fake, logger } = await setup('alerting:\n  alertmanagers:\n  - timeout: 5s\n    static_configs: [{targets: [am1:9093]}]', (_r, nth) => (nth === 1 ? 'hang' : 200), {
      queueCapacity: 5,
      maxBatchSize: 2,
    });
    n.send([alert('A0'), alert('A1')]);
    await timers.advance(0);
    n.send(Array.from({ length: 3 }, (_, i) => alert(`B${i}`)));
    n.send(Array.from({ length: 4 }, (_, i) => alert(`C${i}`)));
    // The hanging batch is in flight (2), the queue holds 5 of the 7 alerts that followed.
    expect(n.stats().destinations[0]).toMatchObject({ queueLength: 5, dropped: 2 });
    expect(logger.lines.some((l) => l.msg === 'notifier: dropping alerts' && l.fields.reason === 'queue full')).toBe(true);
    await timers.advance(60_000);
    // The timed-out batch went back to the head of a full queue: as the oldest alerts, it is dropped.
    expect(namesSent(fake.calls.slice(1))).toEqual(['B2', 'C0', 'C1', 'C2', 'C3']);
    expect(n.stats().destinations[0]).toMatchObject({ sent: 5, errors: 2, dropped: 4, queueLength: 0 });
  });
});

describe('Notifier: failures, retries and backoff', () => {
  it.each<[string, FakeAnswer, boolean]>([
    ['500', 500, true],
    ['503', 503, true],
    ['429', 429, true],
    ['a transport error', new Error('connect ECONNREFUSED 127.0.0.1:9093'), true],
    ['the timeout', 'hang', true],
    ['400 (never accepted)', 400, false],
    ['404 (never accepted)', 404, false],
  ])('a batch answered with %s is %s', async (_name, first, retried) => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - timeout: 2s\n    static_configs: [{targets: [am1:9093]}]', (_r, nth) => (nth === 1 ? first : 200));
    n.send([alert('A')]);
    await timers.advance(10_000);
    expect(fake.calls.length).toBe(retried ? 2 : 1);
    expect(n.stats().destinations[0]).toMatchObject({ sent: retried ? 1 : 0, errors: 1, dropped: retried ? 0 : 1, backoffMs: 0 });
  });

  it('the timeout aborts the request and says so', async () => {
    const { n, timers } = await setup('alerting:\n  alertmanagers:\n  - timeout: 2s\n    static_configs: [{targets: [am1:9093]}]', () => 'hang');
    n.send([alert('A')]);
    await timers.advance(2000);
    expect(n.stats().destinations[0].lastError).toBe(`Post "${AM1}": request timed out after 2000 ms`);
  });

  it('waits longer after each failure, doubling up to the cap, with jitter in [½, 1) of the step', async () => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', (_r, nth) => (nth <= 8 ? 503 : 200), {
      backoff: { initialMs: 1000, maxMs: 16_000 },
    });
    n.send([alert('A')]);
    await timers.advance(200_000);
    const at = fake.calls.map((c) => c.atMs);
    expect(at.length).toBe(9);
    const steps = [1000, 2000, 4000, 8000, 16_000, 16_000, 16_000, 16_000];
    steps.forEach((step, i) => {
      const waited = at[i + 1] - at[i];
      expect(waited).toBeGreaterThanOrEqual(step / 2);
      expect(waited).toBeLessThan(step);
    });
    expect(n.stats().destinations[0]).toMatchObject({ sent: 1, errors: 8, backoffMs: 0 });
  });

  it('while failing, sends nothing new; on recovery a newer copy of an alert supersedes older ones', async () => {
    let down = true;
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', () => (down ? 503 : 200));
    for (let i = 0; i < 5; i++) {
      n.send([alert('A', {}, { endsAt: timers.now + 240_000 }), alert(`Once${i}`, {}, { endsAt: timers.now + 240_000 })]);
      await timers.advance(10_000);
    }
    const failedRequests = fake.calls.length;
    down = false;
    await timers.advance(60_000);
    const delivered = namesSent(fake.calls.slice(failedRequests));
    expect(delivered.filter((a) => a === 'A').length).toBe(1);
    expect(delivered.filter((a) => a.startsWith('Once')).sort()).toEqual(['Once0', 'Once1', 'Once2', 'Once3', 'Once4']);
    expect(n.stats().destinations[0]).toMatchObject({ superseded: 4, dropped: 0, queueLength: 0 });
  });

  it('a firing alert whose endsAt passed while failing is stale and dropped; a resolved one is kept', async () => {
    let down = true;
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', () => (down ? 503 : 200));
    n.send([alert('Firing', {}, { endsAt: T0 + 20_000 }), alert('Resolved', {}, { startsAt: T0 - 60_000, endsAt: T0 - 1 })]);
    await timers.advance(40_000);
    const failed = fake.calls.length;
    down = false;
    await timers.advance(60_000);
    expect(namesSent(fake.calls.slice(failed))).toEqual(['Resolved']);
    expect(n.stats().destinations[0]).toMatchObject({ dropped: 1, sent: 1 });
  });

  it('a down Alertmanager holds about one copy per alert, however long it stays down', async () => {
    const { n, timers } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', () => new Error('connect ECONNREFUSED'));
    let most = 0;
    // An hour of the evaluator resending 100 firing alerts every minute.
    for (let minute = 0; minute < 60; minute++) {
      n.send(Array.from({ length: 100 }, (_, i) => alert(`A${i}`, {}, { endsAt: timers.now + 240_000 })));
      await timers.advance(60_000);
      most = Math.max(most, n.stats().destinations[0].queueLength);
    }
    // At most the alerts of two resends between two retries (the cap is 30 s, the resend 1 m).
    expect(most).toBeLessThanOrEqual(200);
    expect(n.stats().destinations[0].superseded).toBeGreaterThan(5000);
  });

  it('one Alertmanager down or hanging never delays another', async () => {
    const { n, timers, fake } = await setup(TWO_AMS, (req) => (req.url === AM1 ? 'hang' : 200));
    for (let i = 0; i < 3; i++) {
      n.send([alert(`A${i}`)]);
      await timers.advance(1000);
    }
    expect(namesSent(fake.to(AM2))).toEqual(['A0', 'A1', 'A2']);
    expect(fake.to(AM1).length).toBe(1);
  });

  it('stop aborts the request in flight, cancels retries and drops the queue', async () => {
    const { n, timers, fake } = await setup('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [am1:9093]}]', () => 'hang');
    n.send([alert('A')]);
    await timers.advance(0);
    n.send([alert('B'), alert('C')]);
    n.stop();
    await timers.advance(60_000);
    expect(fake.calls.length).toBe(1);
    expect(n.stats().destinations[0]).toMatchObject({ dropped: 3, queueLength: 0 });
    expect(timers.pending).toBe(0);
  });
});
