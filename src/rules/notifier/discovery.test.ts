import { afterEach, describe, expect, it } from 'vitest';
import { Labels, MemoryLogger } from '../../model/index.js';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import { parseYamlDocument, type FileSdFs, type TargetGroup } from '../../config/index.js';
import { parseAlertingConfig } from './config.js';
import { alertmanagersFromGroups, alertsPath } from './discovery.js';
import { Notifier } from './notifier.js';
import { fakePost } from './testing/fake-post.js';

const amConfig = (yaml: string) => parseAlertingConfig(parseYamlDocument(`alerting:\n  alertmanagers:\n  - ${yaml}`).struct('c', ['alerting']).alerting, '/etc/am');
const group = (targets: string[], labels: Record<string, string> = {}, source = '0'): TargetGroup => ({
  targets: targets.map((t) => Labels.from({ __address__: t })),
  labels: Labels.from(labels),
  source,
});

describe('alertsPath', () => {
  it.each([
    ['', '/api/v2/alerts'],
    ['/', '/api/v2/alerts'],
    ['am', '/am/api/v2/alerts'],
    ['/am/', '/am/api/v2/alerts'],
    ['/a//b', '/a/b/api/v2/alerts'],
  ])('%j → %s', (prefix, want) => expect(alertsPath(prefix)).toBe(want));
});

describe('alertmanagersFromGroups: targets, relabeling and deduplication', () => {
  it.each<[string, string, TargetGroup[], string[], string[]]>([
    ['static targets', 'scheme: https', [group(['a:9093', 'b:9093'])], ['https://a:9093/api/v2/alerts', 'https://b:9093/api/v2/alerts'], []],
    ['duplicates are sent to once', '{}', [group(['a:9093', 'a:9093']), group(['a:9093'], {}, '1')], ['http://a:9093/api/v2/alerts'], []],
    [
      'relabeling drops a target (listed under dropped, with its labels before relabeling)',
      'relabel_configs: [{action: keep, source_labels: [dc], regex: eu}]',
      [group(['a:9093'], { dc: 'eu' }), group(['b:9093'], { dc: 'us' }, '1')],
      ['http://a:9093/api/v2/alerts'],
      ['http://b:9093/api/v2/alerts'],
    ],
    [
      'relabeling may rewrite the address, scheme and path',
      'relabel_configs: [{target_label: __scheme__, replacement: https}, {target_label: __alerts_path__, replacement: /custom}, {source_labels: [__address__], regex: "(.*):9093", target_label: __address__, replacement: "$1:443"}]',
      [group(['a:9093'])],
      ['https://a:443/custom'],
      [],
    ],
    ['a group label fills in, a target label wins', 'relabel_configs: [{source_labels: [__address__], target_label: __address__, regex: "(.*)", replacement: "$1"}]', [group(['a:9093'], { __address__: 'ignored' })], ['http://a:9093/api/v2/alerts'], []],
    [
      'a URL as address after relabeling fails its whole group only',
      'relabel_configs: [{source_labels: [__address__], target_label: __address__, regex: "bad", replacement: "http://bad/"}]',
      [group(['ok:9093', 'bad']), group(['c:9093'], {}, '1')],
      ['http://c:9093/api/v2/alerts'],
      [],
    ],
  ])('%s', (_name, yaml, groups, active, dropped) => {
    const cfg = amConfig(yaml).alertmanagers[0];
    expect(alertmanagersFromGroups(cfg, groups, new MemoryLogger())).toEqual({ active, dropped });
  });
});

describe('Notifier: discovery changes are applied live', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const s of stops.splice(0)) s();
  });

  it('file_sd adds and removes Alertmanagers; a URL that stays keeps its loop', async () => {
    const files = new Map<string, string>([['/etc/am/ams.json', JSON.stringify([{ targets: ['am1:9093', 'am2:9093'] }])]]);
    const fs: FileSdFs = {
      readFile: (f) => (files.has(f) ? Promise.resolve(files.get(f) as string) : Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))),
      readdir: () => Promise.resolve([...files.keys()].map((f) => f.split('/').pop() as string)),
    };
    let changed: () => void = () => undefined;
    const timers = new FakeTimers(Date.UTC(2026, 0, 1));
    const fake = fakePost(timers.clock);
    const n = new Notifier({
      logger: new MemoryLogger(),
      clock: timers.clock,
      timers,
      post: fake.post,
      fileSdFs: fs,
      watchDirs: (_dirs, onChange) => {
        changed = onChange;
        return () => undefined;
      },
    });
    stops.push(() => n.stop());
    const cfg = amConfig('file_sd_configs: [{files: ["*.json"]}]\n    relabel_configs: [{action: drop, source_labels: [__address__], regex: "am9:.*"}]');
    await n.applyConfig(cfg, Labels.EMPTY);
    const urls = () => n.alertmanagers().activeAlertmanagers.map((a) => a.url);
    expect(urls()).toEqual(['http://am1:9093/api/v2/alerts', 'http://am2:9093/api/v2/alerts']);
    const send = async () => {
      n.send([{ labels: Labels.from({ alertname: 'A' }), annotations: Labels.EMPTY, startsAt: timers.now, endsAt: timers.now + 240_000, generatorURL: '' }]);
      await timers.advance(0);
    };
    await send();
    expect(n.stats().destinations.map((d) => [d.url, d.sent])).toEqual([
      ['http://am1:9093/api/v2/alerts', 1],
      ['http://am2:9093/api/v2/alerts', 1],
    ]);

    files.set('/etc/am/ams.json', JSON.stringify([{ targets: ['am2:9093', 'am3:9093', 'am9:9093'] }]));
    changed();
    await timers.advance(0);
    expect(n.alertmanagers()).toEqual({
      activeAlertmanagers: [{ url: 'http://am2:9093/api/v2/alerts' }, { url: 'http://am3:9093/api/v2/alerts' }],
      droppedAlertmanagers: [{ url: 'http://am9:9093/api/v2/alerts' }],
    });
    await send();
    // am2's loop survived the change (its count goes on); am3's is new; am1's is gone.
    expect(n.stats().destinations.map((d) => [d.url, d.sent])).toEqual([
      ['http://am2:9093/api/v2/alerts', 2],
      ['http://am3:9093/api/v2/alerts', 1],
    ]);

    // A file that stops parsing keeps its last good targets (file_sd's rule).
    files.set('/etc/am/ams.json', '{not json');
    changed();
    await timers.advance(0);
    expect(urls()).toEqual(['http://am2:9093/api/v2/alerts', 'http://am3:9093/api/v2/alerts']);

    // The refresh interval (5 m by default) rereads without a watch event.
    files.delete('/etc/am/ams.json');
    await timers.advance(300_000);
    expect(urls()).toEqual([]);
    expect(fake.calls.length).toBe(4);
  });

  it('a reload keeps unchanged destinations, restarts changed ones and adds webhooks', async () => {
    const timers = new FakeTimers(Date.UTC(2026, 0, 1));
    const fake = fakePost(timers.clock);
    const n = new Notifier({ logger: new MemoryLogger(), clock: timers.clock, timers, post: fake.post });
    stops.push(() => n.stop());
    const parse = (y: string) => parseAlertingConfig(parseYamlDocument(y).struct('c', ['alerting']).alerting, '/');
    const send = async () => {
      n.send([{ labels: Labels.from({ alertname: 'A' }), annotations: Labels.EMPTY, startsAt: timers.now, endsAt: timers.now + 240_000, generatorURL: '' }]);
      await timers.advance(0);
    };
    await n.applyConfig(parse('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [a:1]}]\n  - static_configs: [{targets: [b:1]}]'), Labels.EMPTY);
    await send();
    await n.applyConfig(
      parse('alerting:\n  alertmanagers:\n  - static_configs: [{targets: [a:1]}]\n  - timeout: 1s\n    static_configs: [{targets: [b:1]}]\n  infersight_webhooks: [{url: "http://hook/x"}]'),
      Labels.EMPTY,
    );
    await send();
    expect(n.stats().destinations.map((d) => [d.kind, d.name, d.sent])).toEqual([
      ['alertmanager', 'http://a:1/api/v2/alerts', 2],
      ['alertmanager', 'http://b:1/api/v2/alerts', 1],
      ['webhook', 'http://hook/x', 1],
    ]);
  });
});
