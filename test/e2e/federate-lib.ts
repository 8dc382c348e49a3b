/** Asking a server a `/federate` golden case, and the golden file that keeps Prometheus' answers. */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FederateCase } from './federate-data.js';

/** Where the `/federate` golden lives. */
export const FEDERATE_GOLDEN_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'federate', 'federate.json');

/** The response headers a golden keeps (the others are dates and lengths). */
const KEPT_HEADERS = ['content-type', 'content-encoding', 'x-content-type-options', 'vary'] as const;

/** One answer as the golden keeps it. */
export interface FederateAnswer {
  readonly name: string;
  readonly request: string;
  readonly status: number;
  readonly headers: Readonly<Record<(typeof KEPT_HEADERS)[number], string | null>>;
  /** The body, decompressed when it came gzipped or deflated. */
  readonly bodyText: string;
}

/** The golden file: where it came from, the data set's base time, the "now" of the first request, the answers. */
export interface FederateGolden {
  readonly capturedFrom: string;
  readonly baseMs: number;
  readonly nowMs: number;
  readonly answers: readonly FederateAnswer[];
}

/** Sends `c` to `base` with exactly the case's headers (no implicit `Accept-Encoding`). */
export function askFederate(base: string, c: FederateCase): Promise<FederateAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: c.method, path: `/federate${c.query === '' ? '' : `?${c.query}`}`, headers: { ...c.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          try {
            let body = Buffer.concat(chunks);
            const encoding = res.headers['content-encoding'];
            if (encoding === 'gzip') body = zlib.gunzipSync(body);
            else if (encoding === 'deflate') body = zlib.inflateSync(body);
            const headers = Object.fromEntries(KEPT_HEADERS.map((h) => [h, (res.headers[h] as string | undefined) ?? null])) as FederateAnswer['headers'];
            resolve({ name: c.name, request: `${c.method} /federate?${c.query}`, status: res.statusCode ?? 0, headers, bodyText: body.toString('utf8') });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Reads the golden; undefined when it was never captured. */
export function readFederateGolden(): FederateGolden | undefined {
  return fs.existsSync(FEDERATE_GOLDEN_FILE) ? (JSON.parse(fs.readFileSync(FEDERATE_GOLDEN_FILE, 'utf8')) as FederateGolden) : undefined;
}

/** Writes the golden (stable formatting, trailing newline). */
export function writeFederateGolden(g: FederateGolden): void {
  fs.mkdirSync(path.dirname(FEDERATE_GOLDEN_FILE), { recursive: true });
  fs.writeFileSync(FEDERATE_GOLDEN_FILE, JSON.stringify(g, null, 2) + '\n');
}
