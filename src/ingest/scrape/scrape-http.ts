import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** TLS settings of one request, files already read. */
export interface RequestTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly servername?: string;
  readonly rejectUnauthorized: boolean;
}

/** One scrape request, as the fetch port receives it. */
export interface ScrapeRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly tls?: RequestTls;
  readonly followRedirects: boolean;
  /** Aborted at the scrape timeout or when the loop stops; the port must then reject and stop reading. */
  readonly signal: AbortSignal;
}

/** The response head and a body stream; the body is read (and size-limited) by the scraper. */
export interface ScrapeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly contentType?: string;
  readonly contentEncoding?: string;
  readonly body: AsyncIterable<Uint8Array>;
}

/** The fetch port of the scraper: production uses `httpScrapeFetch`, tests a fake. */
export type ScrapeFetch = (req: ScrapeRequest) => Promise<ScrapeResponse>;

const MAX_REDIRECTS = 10;

function requestOnce(url: URL, req: ScrapeRequest): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = { method: 'GET', headers: { ...req.headers }, signal: req.signal };
    if (url.protocol === 'https:' && req.tls !== undefined) {
      const t = req.tls;
      Object.assign(options, { ca: t.ca, cert: t.cert, key: t.key, servername: t.servername, rejectUnauthorized: t.rejectUnauthorized });
    }
    const r = (url.protocol === 'https:' ? https : http).request(url, options, resolve);
    r.on('error', reject);
    r.end();
  });
}

/**
 * The production fetch port over `node:http`/`node:https` (so that a per-target CA, client
 * certificate, server name and `insecure_skip_verify` apply). Follows up to 10 redirects when
 * asked, as Go's client. The body is returned raw (gzip is decoded by the scraper).
 */
export const httpScrapeFetch: ScrapeFetch = async (req) => {
  let url = new URL(req.url);
  for (let hops = 0; ; hops++) {
    const res = await requestOnce(url, req);
    // Aborting after an unread or finished body destroys the response; that must not crash the
    // process (a reader iterating the body still sees the error).
    res.on('error', () => undefined);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (req.followRedirects && [301, 302, 303, 307, 308].includes(status) && location !== undefined) {
      res.resume();
      if (hops + 1 >= MAX_REDIRECTS) throw new Error('stopped after 10 redirects');
      url = new URL(location, url);
      continue;
    }
    return {
      status,
      statusText: res.statusMessage ?? http.STATUS_CODES[status] ?? '',
      contentType: res.headers['content-type'],
      contentEncoding: res.headers['content-encoding'],
      body: res,
    };
  }
};

/** Thrown when a body is larger than the target's `body_size_limit`. */
export class BodySizeLimitError extends Error {
  constructor() {
    super('body size limit exceeded');
    this.name = 'BodySizeLimitError';
  }
}

/**
 * Reads a response body, gunzipping when the response says gzip, and fails with
 * `BodySizeLimitError` as soon as the decoded size passes `limitBytes` (0: no limit).
 * Returns the body decoded as strict UTF-8.
 */
export async function readScrapeBody(res: ScrapeResponse, limitBytes: number): Promise<string> {
  const gzip = (res.contentEncoding ?? '').trim().toLowerCase() === 'gzip';
  const source: AsyncIterable<Uint8Array> = gzip ? Readable.from(res.body).pipe(createGunzip()) : res.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (limitBytes > 0 && size > limitBytes) {
      if (gzip) (source as unknown as Readable).destroy();
      throw new BodySizeLimitError();
    }
    chunks.push(chunk);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new Error('invalid UTF-8 in the response body');
  }
}
