import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BodySizeLimitError, SCRAPE_TEXT_PIECE, httpScrapeFetch, readScrapeBody, type ScrapeResponse } from './scrape-http.js';

const TLS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'tls');
const pem = (name: string) => fs.readFileSync(path.join(TLS_DIR, name), 'utf8');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function serve(handler: http.RequestListener, tls?: https.ServerOptions): Promise<string> {
  const server = tls === undefined ? http.createServer(handler) : https.createServer(tls, handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => {
    server.close(() => r());
    server.closeAllConnections();
  }));
  return `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const response = (body: Uint8Array, contentEncoding?: string): ScrapeResponse => ({
  status: 200,
  statusText: 'OK',
  contentEncoding,
  body: (async function* () {
    for (let i = 0; i < body.length; i += 1000) yield body.subarray(i, i + 1000);
  })(),
});

/** Reads a whole body into one string. */
async function readAll(res: ScrapeResponse, limitBytes: number, yieldTurn?: () => Promise<void>): Promise<string> {
  const pieces: string[] = [];
  await readScrapeBody(res, { limitBytes, onText: (t) => pieces.push(t), yieldTurn });
  return pieces.join('');
}

/** A body from a generator that counts the bytes the reader pulled from it. */
function counted(chunks: () => Iterable<Uint8Array>, contentEncoding?: string): { res: ScrapeResponse; pulled: () => number } {
  let pulled = 0;
  return {
    res: {
      status: 200,
      statusText: 'OK',
      contentEncoding,
      body: (async function* () {
        for (const c of chunks()) {
          pulled += c.byteLength;
          yield c;
        }
      })(),
    },
    pulled: () => pulled,
  };
}

describe('readScrapeBody', () => {
  const text = 'metric_with_a_long_name{label="value"} 1\n'.repeat(500);
  it('decodes gzip', async () => {
    expect(await readAll(response(gzipSync(text), 'gzip'), 0)).toBe(text);
  });
  it('limits the decoded size, also for a small compressed body', async () => {
    const limit = 4096;
    expect(gzipSync(text).length).toBeLessThan(limit);
    await expect(readAll(response(gzipSync(text), 'gzip'), limit)).rejects.toBeInstanceOf(BodySizeLimitError);
    await expect(readAll(response(Buffer.from(text)), limit)).rejects.toThrow('body size limit exceeded');
    expect(await readAll(response(Buffer.from(text)), text.length)).toBe(text);
  });
  it('rejects a corrupt gzip stream and invalid UTF-8, also split across chunks', async () => {
    await expect(readAll(response(Buffer.from('not gzip'), 'gzip'), 0)).rejects.toThrow();
    await expect(readAll(response(Buffer.from([0xc3, 0x28])), 0)).rejects.toThrow('invalid UTF-8 in the response body');
    await expect(readAll(response(Buffer.from([0x61, 0xe6])), 0)).rejects.toThrow('invalid UTF-8 in the response body');
    const split = Buffer.from('a{v="日本"} 1\n'.repeat(300)); // 1000-byte chunks cut the characters
    expect(await readAll(response(split), 0)).toBe(split.toString());
  });

  it('a 400 MiB gzip bomb stops at the limit, having decompressed and pulled only a little of it', async () => {
    // Gzip members concatenate: 400 members of 1 MiB of newlines each decode to 400 MiB.
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x0a), { level: 9 });
    const bomb = counted(function* () {
      for (let i = 0; i < 400; i++) yield member;
    }, 'gzip');
    let decoded = 0;
    const read = readScrapeBody(bomb.res, { limitBytes: 4 * 1024 * 1024, onText: (t) => (decoded += t.length) });
    await expect(read).rejects.toBeInstanceOf(BodySizeLimitError);
    expect(decoded).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(bomb.pulled()).toBeLessThan(40 * member.length); // the rest of the 400 members was never read
  });

  it('an endless plain body stops at the limit', async () => {
    const endless = counted(function* () {
      for (;;) yield Buffer.alloc(65536, 0x0a);
    });
    await expect(readAll(endless.res, 1024 * 1024)).rejects.toBeInstanceOf(BodySizeLimitError);
    expect(endless.pulled()).toBeLessThanOrEqual(1024 * 1024 + 65536);
  });

  it('hands the text over in pieces, yielding a turn between them', async () => {
    const big = 'x 1\n'.repeat(100_000); // one 400,000-byte chunk
    const events: string[] = [];
    await readScrapeBody({ status: 200, statusText: 'OK', body: (async function* () { yield Buffer.from(big); })() }, {
      limitBytes: 0,
      onText: (t) => events.push(`text ${t.length}`),
      yieldTurn: () => {
        events.push('yield');
        return Promise.resolve();
      },
    });
    expect(events.filter((e) => e === 'yield').length).toBe(Math.floor(big.length / SCRAPE_TEXT_PIECE));
    // Between two turns the parser gets at most one piece's worth of text.
    let since = 0;
    for (const e of events) {
      since = e === 'yield' ? 0 : since + Number(e.split(' ')[1]);
      expect(since).toBeLessThanOrEqual(SCRAPE_TEXT_PIECE);
    }
    expect(events.filter((e) => e !== 'yield').join('')).not.toBe('');
  });

  it('delivers nothing once the signal fired', async () => {
    const ac = new AbortController();
    const pieces: string[] = [];
    const read = readScrapeBody(response(Buffer.from(text)), { limitBytes: 0, signal: ac.signal, onText: (t) => {
      pieces.push(t);
      ac.abort(new Error('timeout'));
    } });
    await expect(read).rejects.toThrow('timeout');
    expect(pieces).toHaveLength(1);
  });
});

describe('httpScrapeFetch', () => {
  const signal = () => new AbortController().signal;

  it('sends the headers and returns status, content type and the raw body', async () => {
    let seen: http.IncomingHttpHeaders = {};
    const base = await serve((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4', 'Content-Encoding': 'gzip' });
      res.end(gzipSync('up 1\n'));
    });
    const res = await httpScrapeFetch({ url: `${base}/metrics`, headers: { Accept: 'x/y', 'X-Test': '1' }, followRedirects: true, signal: signal() });
    expect([res.status, res.contentType, res.contentEncoding]).toEqual([200, 'text/plain; version=0.0.4', 'gzip']);
    expect(await readAll(res, 0)).toBe('up 1\n');
    expect(seen).toMatchObject({ accept: 'x/y', 'x-test': '1' });
  });

  it('follows redirects only when asked, and at most 10', async () => {
    const base = await serve((req, res) => {
      const n = Number((req.url ?? '').slice(1));
      if (n < 12) res.writeHead(302, { Location: `/${n + 1}` }).end();
      else res.writeHead(200).end('ok');
    });
    const get = (url: string, followRedirects: boolean) => httpScrapeFetch({ url, headers: {}, followRedirects, signal: signal() });
    expect((await get(`${base}/9`, true)).status).toBe(200);
    expect((await get(`${base}/9`, false)).status).toBe(302);
    await expect(get(`${base}/0`, true)).rejects.toThrow('stopped after 10 redirects');
  });

  it('an abort after an unread error body releases the connection without an unhandled error', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(500);
      res.write('x'.repeat(1 << 16));
      // The body never ends.
    });
    const ac = new AbortController();
    const res = await httpScrapeFetch({ url: `${base}/metrics`, headers: {}, followRedirects: true, signal: ac.signal });
    expect(res.status).toBe(500);
    ac.abort(new Error('done'));
    await new Promise((r) => setImmediate(r));
  });

  it('rejects when the signal aborts a hanging request', async () => {
    const base = await serve(() => undefined);
    const ac = new AbortController();
    const p = httpScrapeFetch({ url: `${base}/metrics`, headers: {}, followRedirects: true, signal: ac.signal });
    ac.abort(new Error('deadline'));
    await expect(p).rejects.toThrow();
  });

  it('uses tls_config: CA, server name, client certificate, insecure_skip_verify', async () => {
    let clientCn: string | string[] | undefined;
    const base = await serve(
      (req, res) => {
        const cert = req.socket instanceof tls.TLSSocket ? req.socket.getPeerCertificate() : undefined;
        clientCn = cert?.subject?.CN;
        res.end('up 1\n');
      },
      { cert: pem('server.pem'), key: pem('server-key.pem'), ca: pem('ca.pem'), requestCert: true, rejectUnauthorized: false },
    );
    const get = (tls: Parameters<typeof httpScrapeFetch>[0]['tls']) => httpScrapeFetch({ url: `${base}/metrics`, headers: {}, tls, followRedirects: true, signal: signal() });
    await expect(get({ rejectUnauthorized: true })).rejects.toThrow(/self-signed|unable to verify|certificate/i);
    expect((await get({ ca: pem('ca.pem'), rejectUnauthorized: true })).status).toBe(200);
    expect((await get({ ca: pem('ca.pem'), servername: 'target.test', rejectUnauthorized: true })).status).toBe(200);
    await expect(get({ ca: pem('ca.pem'), servername: 'other.test', rejectUnauthorized: true })).rejects.toThrow(/altnames|Hostname/i);
    expect((await get({ rejectUnauthorized: false })).status).toBe(200);
    expect(clientCn).toBeUndefined();
    expect((await get({ ca: pem('ca.pem'), cert: pem('client.pem'), key: pem('client-key.pem'), rejectUnauthorized: true })).status).toBe(200);
    expect(clientCn).toBe('scraper');
  });
});
