import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Labels, MemoryLogger, STALE_NAN } from '../model/index.js';
import { Db } from '../tsdb/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { DEFAULT_API_LIMITS } from './api/index.js';
import { formatFederation, parseFederateMatchers, registerFederateRoutes, selectLatest } from './federate.js';
import { listen, type HttpListener, type Routes } from './http.js';

const NOW = 1_700_000_000_000;
const L = (r: Record<string, string>) => Labels.from(r);

describe('formatFederation', () => {
  it.each<[string, Parameters<typeof formatFederation>[0], string]>([
    ['no labels: instance="" keeps the scraper from adding its own', [{ name: 'up', labels: L({ __name__: 'up' }), tMs: 5, value: 1 }], '# TYPE up untyped\nup{instance=""} 1 5\n'],
    [
      'instance present: nothing added, label order kept',
      [{ name: 'x', labels: L({ __name__: 'x', job: 'j', instance: 'i', Z: 'z' }), tMs: 5, value: 2 }],
      '# TYPE x untyped\nx{Z="z",instance="i",job="j"} 2 5\n',
    ],
    ['escaping', [{ name: 'x', labels: L({ __name__: 'x', a: 'q"b\\n\nx' }), tMs: 1, value: 0.5 }], '# TYPE x untyped\nx{a="q\\"b\\\\n\\nx",instance=""} 0.5 1\n'],
    ['-0 is written 0, as Go writeFloat', [{ name: 'x', labels: L({ __name__: 'x', instance: 'i' }), tMs: 1, value: -0 }], '# TYPE x untyped\nx{instance="i"} 0 1\n'],
    [
      'one TYPE line per run of a name',
      [
        { name: 'a', labels: L({ __name__: 'a', instance: '1' }), tMs: 1, value: NaN },
        { name: 'a', labels: L({ __name__: 'a', instance: '2' }), tMs: 2, value: Infinity },
        { name: 'b', labels: L({ __name__: 'b', instance: '1' }), tMs: 3, value: 1e21 },
      ],
      '# TYPE a untyped\na{instance="1"} NaN 1\na{instance="2"} +Inf 2\n# TYPE b untyped\nb{instance="1"} 1e+21 3\n',
    ],
    ['nothing', [], ''],
  ])('%s', (_name, series, want) => {
    expect(formatFederation(series)).toBe(want);
  });
});

describe('parseFederateMatchers', () => {
  it.each<[string, string[], string]>([
    ['none', [], 'no match[] parameter provided'],
    ['bad selector', ['up', 'x{'], '1:3: parse error: unexpected end of input inside braces'],
    ['an expression', ['sum(up)'], 'parse error'],
    ['over the limit', [`x{a="${'b'.repeat(70_000)}"}`], 'invalid parameter "match[]": the value is 70007 bytes long, more than the limit of 65536 bytes'],
  ])('refuses %s with 400', (_name, match, message) => {
    expect(() => parseFederateMatchers(match, DEFAULT_API_LIMITS.maxQueryBytes)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(message) as unknown }));
  });
});

describe('/federate over a Db', () => {
  const t = tempDir('federate-unit');
  let db: Db;
  let server: HttpListener;
  let ready = true;
  let base = '';

  beforeAll(async () => {
    db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: () => NOW });
    const app = db.appender();
    // 'stale' stands for STALE_NAN: V8 canonicalizes NaN payloads kept in number arrays.
    const add = (labels: Record<string, string>, points: [number, number | 'stale'][]) => {
      let ref = 0;
      for (const [o, v] of points) ref = app.append(ref, L(labels), NOW + o, v === 'stale' ? STALE_NAN : v);
    };
    add({ __name__: 'b_metric', instance: 'i2' }, [[-60_000, 1], [-10_000, 2]]);
    add({ __name__: 'b_metric', instance: 'i1' }, [[-300_000, 7]]); // exactly at the lookback bound: in
    add({ __name__: 'a_metric', instance: 'i1' }, [[-300_001, 8]]); // just past it: out
    add({ __name__: 'a_metric', instance: 'i2' }, [[0, 9]]); // exactly now: in
    add({ __name__: 'a_metric', instance: 'i3' }, [[-20_000, 3], [-10_000, 'stale']]); // ended: out
    add({ __name__: 'a_metric', instance: 'i4' }, [[-20_000, 4], [1_000, 5]]); // after now: the earlier one
    await app.commit();
    const routes: Routes = new Map();
    registerFederateRoutes(routes, { queryable: () => (ready ? db : null), clock: () => NOW, lookbackDeltaMs: 300_000, limits: DEFAULT_API_LIMITS, logger: new MemoryLogger() });
    server = await listen('127.0.0.1:0', routes, new MemoryLogger());
    base = `http://127.0.0.1:${server.address.port}`;
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    t.remove();
  });

  it('selects the latest sample in [now - lookback, now], drops stale series, sorts by name then labels', () => {
    const got = selectLatest(db, parseFederateMatchers(['{__name__=~".+_metric"}', 'b_metric'], 1000), NOW, 300_000);
    expect(got.map((s) => [s.labels.toString(), s.tMs - NOW, s.value])).toEqual([
      ['a_metric{instance="i2"}', 0, 9],
      ['a_metric{instance="i4"}', -20_000, 4],
      ['b_metric{instance="i1"}', -300_000, 7],
      ['b_metric{instance="i2"}', -10_000, 2],
    ]);
  });

  it('selects nothing for {} (as Prometheus 2.42), but everything without a label for {job=""}', () => {
    expect(selectLatest(db, parseFederateMatchers(['{}'], 1000), NOW, 300_000)).toEqual([]);
    expect(selectLatest(db, parseFederateMatchers(['{job=""}'], 1000), NOW, 300_000)).toHaveLength(4);
  });

  it('answers GET and POST with text 0.0.4, gzipped on request', async () => {
    const want = `# TYPE b_metric untyped\nb_metric{instance="i1"} 7 ${NOW - 300_000}\nb_metric{instance="i2"} 2 ${NOW - 10_000}\n`;
    const get = await fetch(`${base}/federate?match[]=b_metric`, { headers: { 'Accept-Encoding': 'identity' } });
    expect([get.status, get.headers.get('content-type'), await get.text()]).toEqual([200, 'text/plain; version=0.0.4; charset=utf-8', want]);
    const post = await fetch(`${base}/federate`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'match[]=b_metric' });
    expect(await post.text()).toBe(want);
    const gz = await fetch(`${base}/federate?match[]=b_metric`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(want); // fetch decodes
    expect(zlib.gunzipSync(zlib.gzipSync(want)).toString()).toBe(want);
  });

  it('answers 400 in plain text for a missing match[], and 503 while the store is not ready', async () => {
    const bad = await fetch(`${base}/federate`);
    expect([bad.status, bad.headers.get('content-type'), bad.headers.get('x-content-type-options'), await bad.text()]).toEqual([
      400,
      'text/plain; charset=utf-8',
      'nosniff',
      'no match[] parameter provided\n',
    ]);
    ready = false;
    try {
      const r = await fetch(`${base}/federate?match[]=b_metric`);
      expect([r.status, await r.text()]).toEqual([503, 'Service Unavailable']);
    } finally {
      ready = true;
    }
  });
});
