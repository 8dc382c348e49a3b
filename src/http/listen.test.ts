import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { formatHostPort, listenOn, parseListenAddress } from './listen.js';

test.each([
  [':9300', undefined, 9300],
  ['127.0.0.1:9300', '127.0.0.1', 9300],
  ['0.0.0.0:9300', '0.0.0.0', 9300],
  ['[::1]:0', '::1', 0],
  ['[::]:9300', '::', 9300],
  ['localhost:65535', 'localhost', 65535],
])('%s → host %s, port %d', (address, host, port) => {
  expect(parseListenAddress(address)).toEqual({ host, port });
});

test.each(['9300', 'host', 'host:', 'host:port', ':65536', ':-1', '::1:9300', '[::1:9300'])('%s is refused', (address) => {
  expect(() => parseListenAddress(address)).toThrow(/listen address/);
});

test.each([
  [{ address: '127.0.0.1', family: 'IPv4', port: 9 }, '127.0.0.1:9'],
  [{ address: '::', family: 'IPv6', port: 9 }, '[::]:9'],
])('formatHostPort(%o) is %s', (a, want) => {
  expect(formatHostPort(a)).toBe(want);
});

test('listenOn binds, and a busy port rejects with the listen error and no listener left', async () => {
  const a = createServer();
  const b = createServer();
  try {
    const bound = await listenOn(a, '127.0.0.1:0');
    expect(bound.port).toBeGreaterThan(0);
    const err = (await listenOn(b, `127.0.0.1:${bound.port}`).then(
      () => null,
      (e: unknown) => e,
    )) as NodeJS.ErrnoException & { port: number };
    expect([err.code, err.syscall, err.port]).toEqual(['EADDRINUSE', 'listen', bound.port]);
    expect(b.listenerCount('error')).toBe(0);
  } finally {
    await new Promise((r) => a.close(r));
  }
});
