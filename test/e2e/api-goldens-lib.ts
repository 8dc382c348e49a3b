/** Asking a server a golden case, and reducing its answer to what a golden file stores. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Compare, GoldenCase } from './api-golden-cases.js';

/** Where the HTTP API goldens live. */
export const API_GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'api');

/** What a golden file holds for one case. */
export interface GoldenRecord {
  readonly request: string;
  readonly compare: Compare;
  readonly note?: string;
  readonly status: number;
  readonly headers: { readonly 'content-type': string | null; readonly 'content-encoding': string | null };
  /** The normalized JSON body (timings zeroed; for `shape`, only the structure), or the text when it is not JSON. */
  readonly body: unknown;
  /** The exact body, for `bytes` cases. */
  readonly bodyText?: string;
}

/** The request line of a case, as the golden file names it. */
export function describeRequest(c: GoldenCase): string {
  const qs = new URLSearchParams(c.params as [string, string][]).toString();
  return `${c.method} ${c.path}${qs === '' ? '' : `?${qs}`}`;
}

/** Sends the case to `base` (a form body for POST) and reduces the answer. */
export async function ask(base: string, c: GoldenCase): Promise<GoldenRecord> {
  const qs = new URLSearchParams(c.params as [string, string][]).toString();
  const init: RequestInit = { method: c.method, headers: { ...c.headers } };
  let url = base + c.path;
  if (c.method === 'POST') {
    init.body = qs;
    (init.headers as Record<string, string>)['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (qs !== '') {
    url += `?${qs}`;
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = normalize(c.compare, JSON.parse(text));
  } catch {
    // not JSON: keep the text
  }
  return {
    request: describeRequest(c),
    compare: c.compare,
    ...(c.note === undefined ? {} : { note: c.note }),
    status: res.status,
    headers: { 'content-type': res.headers.get('content-type'), 'content-encoding': res.headers.get('content-encoding') },
    body,
    ...(c.compare === 'bytes' ? { bodyText: text } : {}),
  };
}

function shape(v: unknown): unknown {
  // Arrays reduce to a marker: list lengths and contents are each server's own (head statistics).
  if (Array.isArray(v)) return '<array>';
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return `<${v === null ? 'null' : typeof v}>`;
}

function sortVectors(v: unknown): unknown {
  const d = (v as { data?: { resultType?: string; result?: { metric: unknown }[] } }).data;
  if (d !== undefined && (d.resultType === 'vector' || d.resultType === 'matrix') && Array.isArray(d.result)) {
    d.result.sort((a, b) => (JSON.stringify(a.metric) < JSON.stringify(b.metric) ? -1 : 1));
  }
  return v;
}

/** Zeroes volatile numbers (stats timings) and reduces the body as the comparison mode needs. */
export function normalize(mode: Compare, body: unknown): unknown {
  if (mode === 'shape') return shape(body);
  const data = (body as { data?: { stats?: { timings?: Record<string, number> } } }).data;
  if (data?.stats?.timings !== undefined) for (const k of Object.keys(data.stats.timings)) data.stats.timings[k] = 0;
  if (mode === 'errorType') {
    const b = body as { status?: string; errorType?: string; error?: string };
    return { status: b.status, errorType: b.errorType };
  }
  return mode === 'json' ? sortVectors(body) : body;
}

/** Reads the golden of a case; undefined when it was never captured. */
export function readGolden(name: string): GoldenRecord | undefined {
  const file = path.join(API_GOLDEN_DIR, `${name}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as GoldenRecord) : undefined;
}

/** Writes the golden of a case (stable formatting, trailing newline, so diffs review well). */
export function writeGolden(name: string, record: GoldenRecord): void {
  fs.mkdirSync(API_GOLDEN_DIR, { recursive: true });
  fs.writeFileSync(path.join(API_GOLDEN_DIR, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
}
