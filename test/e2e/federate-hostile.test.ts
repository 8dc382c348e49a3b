import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { pushFederateDataset } from './federate-data.js';

const BASE_MS = 1_700_000_000_000;

/**
 * Hostile input for `/federate`: each answer is a 400 in Prometheus' plain-text format (Go's
 * `http.Error`: `text/plain; charset=utf-8`, `nosniff`, the message and a newline), and the
 * server keeps federating afterwards.
 */
describe('/federate under hostile input', () => {
  const t = tempDir('federate-hostile');
  let server: RunningServer;
  let base = '';

  beforeAll(async () => {
    server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => BASE_MS });
    await server.ready;
    base = `http://127.0.0.1:${server.http.address.port}`;
    await pushFederateDataset(base, BASE_MS);
  });
  afterAll(async () => {
    await server.close();
    t.remove();
  });

  async function stillServing(): Promise<void> {
    const r = await fetch(`${base}/federate?match[]=fed_lonely`);
    expect([r.status, await r.text()]).toEqual([200, `# TYPE fed_lonely untyped\nfed_lonely{instance=""} 42 ${BASE_MS - 10_000}\n`]);
  }

  const q = (s: string) => encodeURIComponent(s);
  const huge = `fed_gauge{kind=~"${'a|'.repeat(40_000)}b"}`;

  it.each<[string, string, string | undefined, string]>([
    // [name, path?query, form body (POST) or undefined (GET), message fragment]
    ['no match[]', '/federate', undefined, 'no match[] parameter provided'],
    ['no match[] but other parameters', '/federate?match=fed_lonely&query=up', undefined, 'no match[] parameter provided'],
    ['unclosed braces', `/federate?match[]=${q('fed_gauge{')}`, undefined, 'parse error: unexpected end of input inside braces'],
    ['an expression', `/federate?match[]=${q('sum(fed_gauge)')}`, undefined, 'parse error'],
    ['garbage', `/federate?match[]=${q('}{)(][')}`, undefined, 'parse error'],
    ['NUL bytes and bad UTF-8', '/federate?match[]=fed%00%FF%FE', undefined, 'parse error'],
    ['a bad one among good ones', `/federate?match[]=fed_lonely&match[]=${q('x{a=}')}`, undefined, 'parse error'],
    ['a selector over 64 KiB by GET', `/federate?match[]=${q(huge)}`, undefined, 'invalid parameter "match[]": the value is 80020 bytes long, more than the limit of 65536 bytes'],
    ['a selector over 64 KiB by POST', '/federate', `match[]=${q(huge)}`, 'more than the limit of 65536 bytes'],
    ['a form body over 10 MiB', '/federate', `match[]=${'a'.repeat(11 * 1024 * 1024)}`, 'error parsing form values: http: POST too large'],
    ['a bad escape', '/federate?match[]=%zz', undefined, 'error parsing form values: invalid URL escape "%zz"'],
    ['a semicolon separator', '/federate?match[]=fed_lonely;x=1', undefined, 'error parsing form values: invalid semicolon separator in query'],
  ])('%s: 400 in plain text', async (_name, path, body, fragment) => {
    const init: RequestInit = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body };
    const r = await fetch(base + path, init);
    const text = await r.text();
    expect([r.status, r.headers.get('content-type'), r.headers.get('x-content-type-options')]).toEqual([400, 'text/plain; charset=utf-8', 'nosniff']);
    expect(text).toContain(fragment);
    expect(text.endsWith('\n')).toBe(true);
    await stillServing();
  });

  it('answers many overlapping selectors once per series', async () => {
    const selectors = Array.from({ length: 500 }, (_, i) => `match[]=${q(`{__name__="fed_lonely",job!="x${i}"}`)}`);
    const r = await fetch(`${base}/federate`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: selectors.join('&') });
    expect([r.status, (await r.text()).split('\n').filter((l) => l.startsWith('fed_lonely')).length]).toEqual([200, 1]);
  });

  it('answers methods other than GET and POST with 405', async () => {
    const r = await fetch(`${base}/federate?match[]=fed_lonely`, { method: 'DELETE' });
    expect(r.status).toBe(405);
    await stillServing();
  });
});
