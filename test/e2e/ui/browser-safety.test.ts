/**
 * Issue 14, point 6, in a real Chromium: a page served from another origin (a tiny server on
 * another port) tries what it once could against a default `infersight serve` — a typeless
 * `no-cors` remote write, `POST /-/reload`, and reading `/api/v1/status/flags` — and none of it
 * works. The effects are checked from outside the page: no sample stored, no reload logged.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { tempDir } from '../../../src/tsdb/testing/temp-dir.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../../src/wire/index.js';
import { findPeer, itWithPeer, waitFor } from '../../peers/peers.js';
import { startServe, type RunningCli } from '../cli.js';
import { launchChromium, openWatchedPage } from './browser.js';

const chromiumPath = findPeer('chromium');
const body = (name: string): Uint8Array => snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', name], ['job', 'probe']], samples: [{ tMs: Date.now(), value: 1 }] }]));

let cli: RunningCli;
let attacker: http.Server;
let attackerUrl = '';
let browser: Browser | undefined;
let remove: () => void;

beforeAll(async () => {
  const t = tempDir('browser-safety');
  remove = t.remove;
  const config = path.join(t.dir, 'scrape.yml');
  fs.writeFileSync(config, 'scrape_configs: []\n');
  // Lifecycle on: /-/reload would work for a caller that is allowed.
  cli = await startServe(['--data', path.join(t.dir, 'data'), '--config.file', config, '--web.enable-lifecycle', '--normalize.off', '--otlp.listen', 'off']);
  attacker = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  if (chromiumPath !== null) browser = await launchChromium(chromiumPath);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => attacker.close(r));
  cli.child.kill('SIGTERM');
  await cli.exited;
  remove();
});

async function stored(name: string): Promise<number> {
  const r = (await (await fetch(`${cli.base}/api/v1/query?query=${name}`)).json()) as { data: { result: unknown[] } };
  return r.data.result.length;
}

const reloads = (): number => cli.log.filter((l) => l.includes('completed loading of configuration file')).length;

describe('a page on another origin', () => {
  itWithPeer('cannot write, reload or read the flags', 'chromium', async () => {
    if (browser === undefined) throw new Error('no browser');
    const w = await openWatchedPage(browser);
    await w.page.goto(attackerUrl);
    const target = cli.base;
    const outcome = await w.page.evaluate(
      async ({ target, b64 }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const results: string[] = [];
        // A typeless no-cors POST: the body goes out with no Content-Type, as in the issue.
        await fetch(`${target}/api/v1/write`, { method: 'POST', mode: 'no-cors', body: new Blob([bytes]) }).then(() => results.push('write sent'), () => results.push('write failed'));
        await fetch(`${target}/-/reload`, { method: 'POST', mode: 'no-cors' }).then(() => results.push('reload sent'), () => results.push('reload failed'));
        await fetch(`${target}/api/v1/status/flags`).then(
          async (r) => results.push(`flags read: ${(await r.text()).slice(0, 20)}`),
          () => results.push('flags unreadable'),
        );
        return results;
      },
      { target, b64: Buffer.from(body('csrf_probe')).toString('base64') },
    );
    // no-cors requests resolve with an opaque answer whatever the status; the CORS read fails.
    expect(outcome).toEqual(['write sent', 'reload sent', 'flags unreadable']);
    await w.context.close();

    // The same body written by a program is stored, and a reload by a program is done: the refusals
    // above were about the page's origin, not about the requests themselves.
    const control = await fetch(`${cli.base}/api/v1/write`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' }, body: body('csrf_control') });
    expect(control.status).toBe(204);
    expect((await fetch(`${cli.base}/-/reload`, { method: 'POST' })).status).toBe(200);
    await waitFor('the control reload logged', async () => (reloads() >= 1 ? true : undefined));
    expect(await stored('csrf_control')).toBe(1);
    expect(await stored('csrf_probe')).toBe(0);
    expect(reloads()).toBe(1);
  });
});
