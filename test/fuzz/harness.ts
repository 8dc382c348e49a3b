/**
 * Sending generated requests to a running process and judging the answers: every request must
 * answer within a generous budget (an AbortSignal; one that does not is a hang), with a status the
 * endpoint may give, and the process must still serve `/-/healthy` after each batch.
 */
import fs from 'node:fs';
import http from 'node:http';
import fc from 'fast-check';
import type { FuzzEndpoint, FuzzRequest } from './generators.js';

/** Cases per endpoint (`FUZZ_RUNS` runs more). */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** The seed of this run (`FUZZ_SEED` repeats one); printed by the test. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * How long one request may take before it counts as a hang: generous, never a timing assert. Past
 * the engine's default `--query.timeout` (2 m): a random query such as `max_over_time(x[1y:1s])`
 * may rightly run that long before its documented 503 `timeout`.
 */
export const HANG_BUDGET_MS = 150_000;

/** Requests in flight at once per batch. */
const CONCURRENCY = 8;

/** One answer, or what went wrong on the way. */
export type Outcome = { readonly status: number; readonly body: string } | { readonly hang: true } | { readonly error: string };

/** Sends one request to `base` and reads the whole answer. The path goes out as generated (no normalization). */
export function send(base: string, r: FuzzRequest, headers: Readonly<Record<string, string>> = {}, budgetMs = HANG_BUDGET_MS): Promise<Outcome> {
  const url = new URL(base);
  const signal = AbortSignal.timeout(budgetMs);
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers: { ...r.headers, ...headers, ...(r.body === undefined ? {} : { 'Content-Length': r.body.length }) }, signal, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, 300).toString('utf8') }));
        res.on('error', (e) => resolve(signal.aborted ? { hang: true } : { error: e.message }));
      });
    } catch (e) {
      // A request Node refuses to send (an invalid path or header) is not a server failure.
      resolve({ status: -1, body: (e as Error).message });
      return;
    }
    req.on('error', (e) => resolve(signal.aborted ? { hang: true } : { error: e.message }));
    req.end(r.body === undefined ? undefined : Buffer.from(r.body));
  });
}

/** A request that failed the checks, for the report. */
export interface Failure {
  readonly endpoint: string;
  readonly request: string;
  readonly outcome: string;
}

/** Which statuses pass: 1xx–4xx, and the 5xx the endpoint documents; `expect` overrides. */
export type Judge = (o: { status: number; body: string }, r: FuzzRequest) => boolean;

const describeRequest = (r: FuzzRequest): string => {
  const body = r.body === undefined ? '' : ` body[${r.body.length}]=${Buffer.from(r.body.subarray(0, 120)).toString('base64')}`;
  return `${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers)}${body}`;
};

/** The requests of one batch: `runs` samples of the endpoint's arbitrary from `seed`. */
export function batch(e: FuzzEndpoint, seed: number, runs = FUZZ_RUNS): FuzzRequest[] {
  return fc.sample(e.requests, { seed, numRuns: runs });
}

/**
 * Sends `requests` to `base` (CONCURRENCY at a time) and returns every failure: a hang, a
 * connection error, or a status `judge` refuses. A status of -1 (Node would not send it) is skipped.
 */
export async function run(e: FuzzEndpoint, base: string, requests: readonly FuzzRequest[], judge: Judge, headers: Readonly<Record<string, string>> = {}): Promise<{ failures: Failure[]; statuses: Map<number, number> }> {
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const r = requests[next++];
      const o = await send(base, r, headers);
      if ('status' in o) {
        statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
        if (o.status === -1 || judge(o, r)) continue;
        failures.push({ endpoint: e.name, request: describeRequest(r), outcome: `${o.status} ${o.body}` });
      } else failures.push({ endpoint: e.name, request: describeRequest(r), outcome: 'hang' in o ? `no answer within ${HANG_BUDGET_MS} ms` : `connection error: ${o.error}` });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { failures, statuses };
}

/** The default judge: no 5xx but the endpoint's documented ones. */
export function noUndocumented5xx(e: FuzzEndpoint): Judge {
  return (o) => o.status < 500 || ((e.documented5xx ?? []).includes(o.status) && (e.documented5xxBody?.test(o.body) ?? true));
}

/** The resident set size of a process, from `/proc/<pid>/status` (`VmRSS`), in bytes. */
export function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}
