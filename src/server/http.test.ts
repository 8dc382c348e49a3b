import net from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { MemoryLogger } from '../model/index.js';
import { clientErrorStatus, listen, sendText, type HttpListener, type Routes } from './http.js';

const open: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

/** Sends `request` on a raw socket and resolves with the whole answer. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

// Targets `new URL(target, base)` reads as an authority: `//%2F` threw in the request listener
// and ended the process (found by test/fuzz); `//x/-/healthy` routed as `/-/healthy`.
test.each([
  ['GET //%2F?(f HTTP/1.1', /^HTTP\/1\.1 404 /],
  ['GET //evil.example/-/healthy HTTP/1.1', /^HTTP\/1\.1 404 /],
  ['GET http://other/-/healthy HTTP/1.1', /^HTTP\/1\.1 200 [^]*healthy$/],
  ['GET * HTTP/1.1', /^HTTP\/1\.1 404 /],
])('%s is answered and the listener keeps serving', async (line, answer) => {
  const routes: Routes = new Map([['GET /-/healthy', (_req, res) => sendText(res, 200, 'healthy')]]);
  const l = await listen('127.0.0.1:0', routes, new MemoryLogger());
  open.push(l);
  expect(await raw(l.address.port, `${line}\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(answer);
  expect(await raw(l.address.port, 'GET /-/healthy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
});

// Node's request timeout (slow headers, or a body no route reads) is a 408, not a 400.
test.each([
  ['ERR_HTTP_REQUEST_TIMEOUT', 408],
  ['HPE_HEADER_OVERFLOW', 431],
  ['HPE_INVALID_METHOD', 400],
  [undefined, 400],
])('clientError %s → %d', (code, status) => {
  expect(clientErrorStatus(code)).toBe(status);
});
