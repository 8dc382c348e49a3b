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

/** How a body is read: where its text goes, and the turns it gives the other scrapes. */
export interface ReadBodyOptions {
  /** Fails with `BodySizeLimitError` as soon as the decoded size passes this (0: no limit). */
  readonly limitBytes: number;
  /** Receives the body as strict UTF-8 text, in pieces of at most `SCRAPE_TEXT_PIECE` characters. */
  readonly onText: (text: string) => void;
  /** Stops the read (the scrape timed out or its loop stopped): no piece is delivered after it fires. */
  readonly signal?: AbortSignal;
  /** Called between pieces, so that one big body does not hold the event loop (default: `setImmediate`). */
  readonly yieldTurn?: () => Promise<void>;
}

/** The most text handed to the parser between two turns of the event loop. */
export const SCRAPE_TEXT_PIECE = 64 * 1024;

/** A turn of the event loop: I/O callbacks (other targets' responses, HTTP requests) run before it resolves. */
export const setImmediateTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads a response body as it arrives, gunzipping when the response says gzip, decoding strict
 * UTF-8 and handing the text to `onText` piece by piece (Prometheus' `body_size_limit` is thus
 * checked on the decoded size before anything beyond it is decompressed, so a gzip bomb stops
 * at the limit, and a body is never held whole). After every `SCRAPE_TEXT_PIECE` characters it
 * yields a turn of the event loop. Errors thrown by `onText` end the read and are rethrown.
 */
export async function readScrapeBody(res: ScrapeResponse, o: ReadBodyOptions): Promise<void> {
  const gzip = (res.contentEncoding ?? '').trim().toLowerCase() === 'gzip';
  const raw = gzip ? Readable.from(res.body) : undefined;
  const gunzip = raw?.pipe(createGunzip());
  const source: AsyncIterable<Uint8Array> = gunzip ?? res.body;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const yieldTurn = o.yieldTurn ?? setImmediateTurn;
  const decode = (chunk: Uint8Array | undefined): string => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new Error('invalid UTF-8 in the response body');
    }
  };
  let size = 0;
  let sinceTurn = 0;
  try {
    for await (const chunk of source) {
      o.signal?.throwIfAborted();
      size += chunk.byteLength;
      if (o.limitBytes > 0 && size > o.limitBytes) throw new BodySizeLimitError();
      const text = decode(chunk);
      for (let i = 0; i < text.length; i += SCRAPE_TEXT_PIECE) {
        const piece = i === 0 && text.length <= SCRAPE_TEXT_PIECE ? text : text.slice(i, i + SCRAPE_TEXT_PIECE);
        o.onText(piece);
        sinceTurn += piece.length;
        if (sinceTurn >= SCRAPE_TEXT_PIECE) {
          sinceTurn = 0;
          await yieldTurn();
          o.signal?.throwIfAborted();
        }
      }
    }
    o.signal?.throwIfAborted();
    o.onText(decode(undefined));
  } finally {
    // Stops decompressing and reading the response when the read ends early.
    gunzip?.destroy();
    raw?.destroy();
  }
}
