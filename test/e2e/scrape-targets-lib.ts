/**
 * Shared by the `/api/v1/targets` golden capture (real Prometheus 2.42) and the e2e test: the
 * tiny loopback target and writing the golden. The configuration and the normalisation live in
 * src/ingest/scrape/testing/targets-golden.ts, for the unit test too.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { TARGETS_GOLDEN } from '../../src/ingest/scrape/testing/targets-golden.js';

/** A tiny scrape target on loopback; `requests` counts its scrapes. */
export interface TinyTarget {
  readonly port: number;
  readonly requests: () => number;
  close(): Promise<void>;
}

/** Starts the tiny target: a counter and a gauge in text format 0.0.4 on /metrics. */
export async function startTinyTarget(): Promise<TinyTarget> {
  let n = 0;
  const server = http.createServer((req, res) => {
    if (!(req.url ?? '').startsWith('/metrics')) {
      res.writeHead(404).end('not found\n');
      return;
    }
    n++;
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(
      [
        '# HELP tiny_requests_total Requests served.',
        '# TYPE tiny_requests_total counter',
        `tiny_requests_total{code="200"} ${n}`,
        '# HELP tiny_temperature_celsius Temperature.',
        '# TYPE tiny_temperature_celsius gauge',
        'tiny_temperature_celsius 21.5',
        '',
      ].join('\n'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => n,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Writes the golden (stable formatting, trailing newline). */
export function writeTargetsGolden(value: unknown): void {
  fs.mkdirSync(path.dirname(TARGETS_GOLDEN), { recursive: true });
  fs.writeFileSync(TARGETS_GOLDEN, JSON.stringify(value, null, 2) + '\n');
}
