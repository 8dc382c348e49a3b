import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, test } from 'vitest';
import { FakeTimers } from '../model/testing/fake-timers.js';
import { isClientAbort, readBody, type BodyResult } from './body.js';
import { rawClient } from './testing/raw-client.js';

const TIMEOUTS = { idleMs: 1_000, totalMs: 5_000 };

interface Harness {
  readonly port: number;
  readonly timers: FakeTimers;
  /** Resolves once the server has received `n` body bytes (counted beside the reader). */
  received(n: number): Promise<void>;
  /** The reader's result, once it settles. */
  readonly result: Promise<BodyResult>;
  /** Whether the reader has settled yet. */
  settled(): boolean;
  close(): Promise<void>;
}

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** A server whose one handler reads the body with fake timers and answers the result's status. */
async function harness(maxBytes = 1_000): Promise<Harness> {
  const timers = new FakeTimers(0);
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  let done = false;
  let resolveResult: (r: BodyResult) => void = () => {};
  const result = new Promise<BodyResult>((r) => (resolveResult = r));
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      count += c.length;
      for (const w of waiters.filter((x) => count >= x.n)) w.resolve();
    });
    void readBody(req, { maxBytes, timeouts: TIMEOUTS, timers }).then((r) => {
      done = true;
      resolveResult(r);
      const status = r.ok ? 200 : r.problem.kind === 'timeout' ? 408 : r.problem.kind === 'too_large' ? 413 : 400;
      const text = r.ok ? r.body.toString() : r.problem.message;
      res.writeHead(status, { Connection: 'close', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const h: Harness = {
    port: (server.address() as AddressInfo).port,
    timers,
    received: (n) => (count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    result,
    settled: () => done,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  open.push(h);
  return h;
}

const head = (length: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;

describe('readBody', () => {
  it('reads a complete body', async () => {
    const h = await harness();
    const c = rawClient(h.port);
    c.write(head(5) + 'hello');
    expect(await c.answer).toMatch(/^HTTP\/1\.1 200[^]*hello$/);
  });

  it('answers a body that stops arriving after the idle timeout, not before', async () => {
    const h = await harness();
    const c = rawClient(h.port);
    c.write(head(100) + 'x'.repeat(10));
    await h.received(10);
    await h.timers.advance(TIMEOUTS.idleMs - 1);
    expect(h.settled()).toBe(false);
    await h.timers.advance(1);
    expect(await c.answer).toMatch(/^HTTP\/1\.1 408[^]*no byte for 1000 ms$/);
  });

  it('answers a body that trickles (each byte inside the idle timeout) after the total timeout', async () => {
    const h = await harness();
    const c = rawClient(h.port);
    c.write(head(100));
    // Bytes at 0, 999, …, 4995 ms: each one re-arms the idle timeout; the total one runs out at 5000.
    for (let i = 1; i <= 6; i++) {
      c.write('x');
      await h.received(i);
      if (i < 6) await h.timers.advance(TIMEOUTS.idleMs - 1);
    }
    await h.timers.advance(4);
    expect(h.settled()).toBe(false);
    await h.timers.advance(1);
    expect(await c.answer).toMatch(/^HTTP\/1\.1 408[^]*within 5000 ms$/);
    expect(h.timers.pending).toBe(0);
  });

  test.each([
    ['declared', head(2_000) + 'x'],
    ['counted', 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n' + 'x'.repeat(2_000) + '\r\n'],
  ])('refuses a body over the limit (%s) with the rest unread', async (_name, request) => {
    const h = await harness();
    const c = rawClient(h.port);
    c.write(request);
    expect(await c.answer).toMatch(/^HTTP\/1\.1 413[^]*over the limit of 1000 bytes$/);
  });

  it('settles as aborted when the client goes away mid-body, and cancels its timers', async () => {
    const h = await harness();
    const c = rawClient(h.port);
    c.write(head(100) + 'x'.repeat(10));
    await h.received(10);
    c.destroy();
    const r = await h.result;
    expect(r.ok ? 'ok' : r.problem.kind).toBe('aborted');
    expect(h.timers.pending).toBe(0);
  });
});

describe('isClientAbort', () => {
  const err = (message: string, code?: string) => Object.assign(new Error(message), code === undefined ? {} : { code });
  test.each([
    [err('read ECONNRESET', 'ECONNRESET'), true],
    [err('aborted', 'ECONNRESET'), true],
    [err('aborted'), true],
    [err('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'), true],
    [err('write EPIPE', 'EPIPE'), true],
    [err('disk full', 'ENOSPC'), false],
    [err('boom'), false],
    ['aborted', false],
  ])('%s → %s', (e, want) => {
    expect(isClientAbort(e)).toBe(want);
  });
});
