import http from 'node:http';
import https from 'node:https';
import { authorizationHeader, type HttpClientConfig, type ReadTextFile } from '../../config/index.js';

/** TLS settings of one request, files already read. */
export interface NotifyTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly servername?: string;
  readonly rejectUnauthorized: boolean;
}

/** One POST of a batch of alerts, as the notifier's HTTP port receives it. */
export interface NotifyRequest {
  readonly url: string;
  /** The JSON text to send. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly tls?: NotifyTls;
  /** Follow 307 and 308 redirects (which keep the method and body), up to 10. */
  readonly followRedirects: boolean;
  /** Aborted at the destination's timeout or when the notifier stops: the port must then reject and stop reading. */
  readonly signal: AbortSignal;
}

/** What the notifier needs of an answer: its status and the start of its body (for error messages). */
export interface NotifyResponse {
  readonly status: number;
  readonly statusText: string;
  /** At most `RESPONSE_PREFIX_BYTES` of the body, decoded as UTF-8 (invalid bytes replaced). */
  readonly bodyPrefix: string;
}

/**
 * The notifier's HTTP port: production binds `httpNotifyPost`, tests a fake or the same function
 * against a loopback server. It resolves with any HTTP answer (the caller judges the status) and
 * rejects on a transport error or an abort.
 */
export type NotifyPost = (req: NotifyRequest) => Promise<NotifyResponse>;

/** How much of an answer's body is read: Alertmanager answers a POST with a few bytes; a huge body is cut here. */
export const RESPONSE_PREFIX_BYTES = 1024;

const MAX_REDIRECTS = 10;

function postOnce(url: URL, req: NotifyRequest): Promise<{ status: number; statusText: string; location?: string; bodyPrefix: string }> {
  return new Promise((resolve, reject) => {
    // Settles at the abort whatever state the request or response is in (a body that drips in
    // after its headers included), so a hostile peer can never hold a send loop past its timeout.
    const onAbort = () => reject(req.signal.reason instanceof Error ? req.signal.reason : new Error('request aborted'));
    if (req.signal.aborted) {
      onAbort();
      return;
    }
    req.signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => req.signal.removeEventListener('abort', onAbort);
    const body = Buffer.from(req.body, 'utf8');
    const options: https.RequestOptions = {
      method: 'POST',
      headers: { ...req.headers, 'Content-Length': String(body.byteLength) },
      signal: req.signal,
    };
    if (url.protocol === 'https:' && req.tls !== undefined) {
      const t = req.tls;
      Object.assign(options, { ca: t.ca, cert: t.cert, key: t.key, servername: t.servername, rejectUnauthorized: t.rejectUnauthorized });
    }
    const r = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        settle();
        const status = res.statusCode ?? 0;
        resolve({
          status,
          statusText: res.statusMessage ?? http.STATUS_CODES[status] ?? '',
          location: res.headers.location,
          bodyPrefix: Buffer.concat(chunks).subarray(0, RESPONSE_PREFIX_BYTES).toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.byteLength;
        // A huge (or endless) answer: what we need is read; stop the transfer instead of draining it.
        if (size >= RESPONSE_PREFIX_BYTES) {
          res.destroy();
          finish();
        }
      });
      res.on('end', finish);
      // A reset while the body arrives rejects; after `finish` this is a no-op.
      res.on('error', (e) => {
        settle();
        reject(e);
      });
      // A connection closed before the body ended, with no error event.
      res.on('close', () => {
        settle();
        reject(new Error('connection closed before the answer ended'));
      });
    });
    r.on('error', (e) => {
      settle();
      reject(e);
    });
    r.end(body);
  });
}

/**
 * The production HTTP port over `node:http`/`node:https`, so that the destination's CA, client
 * certificate, server name and `insecure_skip_verify` apply. Only 307 and 308 are followed (they
 * repeat the POST; Go's client would turn 301–303 into a GET, which no Alertmanager accepts).
 */
export const httpNotifyPost: NotifyPost = async (req) => {
  let url = new URL(req.url);
  for (let hops = 0; ; hops++) {
    const res = await postOnce(url, req);
    if (req.followRedirects && (res.status === 307 || res.status === 308) && res.location !== undefined) {
      if (hops + 1 >= MAX_REDIRECTS) throw new Error('stopped after 10 redirects');
      url = new URL(res.location, url);
      continue;
    }
    return { status: res.status, statusText: res.statusText, bodyPrefix: res.bodyPrefix };
  }
};

/**
 * The headers and TLS settings of one request from a destination's HTTP client configuration.
 * Credential and TLS files are read for every request, as Prometheus does, so rotated secrets
 * apply without a reload. Rejects when a file cannot be read.
 */
export async function requestOptions(c: HttpClientConfig, readFile: ReadTextFile): Promise<{ authorization?: string; tls: NotifyTls }> {
  const authorization = await authorizationHeader(c, readFile);
  const t = c.tls;
  const read = (inline: string, file: string) => (file !== '' ? readFile(file) : Promise.resolve(inline === '' ? undefined : inline));
  const tls: NotifyTls = {
    ca: await read(t.ca, t.caFile),
    cert: await read(t.cert, t.certFile),
    key: await read(t.key, t.keyFile),
    ...(t.serverName === '' ? {} : { servername: t.serverName }),
    rejectUnauthorized: !t.insecureSkipVerify,
  };
  return { ...(authorization === undefined ? {} : { authorization }), tls };
}
