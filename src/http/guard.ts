/**
 * The check every request passes before its handler: the rate limit, the caller's credentials
 * and scope, and, for state-changing routes, browser safety (no cross-site requests, only the
 * route's real content types). Shared by the server's listeners and the gateway's, each with its
 * own route policies; the caller writes the refusal in its own error shape.
 */
import type http from 'node:http';
import { systemClock, type Clock } from '../model/index.js';
import { Authenticator, type Principal } from './authenticator.js';
import { EMPTY_TOKENS, type Scope, type TokensFile } from './tokens.js';
import { EMPTY_WEB_CONFIG, type WebConfig } from './web-config.js';

/** What a route demands of a request. */
export interface RoutePolicy {
  /** The scope the caller needs; `null`: none, not even credentials (CORS preflights, which browsers send without them). */
  readonly scope: Scope | null;
  /**
   * The media types a state-changing route accepts (`application/x-protobuf`); set only on
   * state-changing routes, which also refuse cross-site requests. An empty list: a
   * state-changing route without a body (`/-/reload`).
   */
  readonly contentTypes?: readonly string[];
}

/** A refused request: the status, a one-line reason, and headers to send (a challenge). */
export interface Refusal {
  readonly status: 401 | 403 | 415 | 429;
  readonly message: string;
  readonly headers: Readonly<Record<string, string | string[]>>;
}

/** The verdict on one request. */
export type Verdict = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly refusal: Refusal };

/** Options of `RequestGuard`. */
export interface GuardOptions {
  readonly webConfig?: WebConfig;
  readonly tokens?: TokensFile;
  /** Origins that CORS answers allow, and that may send state-changing requests (`--web.cors.origin`, anchored); null: none. */
  readonly corsOrigin?: RegExp | null;
  /** The realm named in challenges. */
  readonly realm?: string;
  readonly clock?: Clock;
}

const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The media type of a Content-Type header, lower case without parameters; '' when absent. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Why a request looks cross-site, or null: `Sec-Fetch-Site` says `cross-site` or `same-site`
 * (another port or subdomain is another origin), or `Origin` names neither the `Host` (nor the
 * `X-Forwarded-Host` a reverse proxy sets; a page cannot set either without a preflight) nor an
 * origin that `allowed` matches. Requests without these headers are not from a browser page.
 */
export function crossSiteReason(req: http.IncomingMessage, allowed: RegExp | null): string | null {
  const origin = header(req, 'origin');
  if (origin !== undefined && allowed !== null && allowed.test(origin)) return null;
  const site = header(req, 'sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  if (origin === undefined) return null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return `cross-site request refused (Origin: ${origin})`;
  }
  const hosts = [header(req, 'host'), header(req, 'x-forwarded-host')].filter((h): h is string => h !== undefined).map((h) => h.toLowerCase());
  if (origin === 'null' || !hosts.includes(host.toLowerCase())) return `cross-site request refused (Origin ${origin} is not this server)`;
  return null;
}

/**
 * Whether a request carries a header that browsers send on every POST (Origin, Sec-Fetch-Site).
 * Not Sec-Fetch-Mode: Node's own fetch sends that one too.
 */
function fromBrowser(req: http.IncomingMessage): boolean {
  return req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined;
}

/** A token bucket: `burst` requests at once, one more every `intervalMs` (exporter-toolkit's `rate_limit`). */
class TokenBucket {
  private tokens: number;
  private lastMs: number;

  constructor(
    private readonly intervalMs: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.tokens = burst;
    this.lastMs = clock();
  }

  take(): boolean {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.lastMs) / this.intervalMs);
    this.lastMs = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

const refuse = (status: Refusal['status'], message: string, headers: Refusal['headers'] = {}): Verdict => ({ ok: false, refusal: { status, message, headers } });

/**
 * Checks requests against one web configuration and tokens file; `update` swaps them (a reload)
 * without losing the bcrypt cache of unchanged users. Stateless apart from the rate limit's bucket
 * and that cache; safe to share between listeners.
 */
export class RequestGuard {
  private auth: Authenticator;
  private bucket: TokenBucket | null;
  private config: WebConfig;
  private readonly corsOrigin: RegExp | null;
  private readonly realm: string;
  private readonly clock: Clock;

  constructor(o: GuardOptions = {}) {
    this.config = o.webConfig ?? EMPTY_WEB_CONFIG;
    this.corsOrigin = o.corsOrigin ?? null;
    this.realm = o.realm ?? 'Infersight';
    this.clock = o.clock ?? systemClock;
    this.auth = new Authenticator(this.config.basicAuthUsers, o.tokens ?? EMPTY_TOKENS);
    this.bucket = this.makeBucket();
  }

  /** The web configuration in force. */
  get webConfig(): WebConfig {
    return this.config;
  }

  /** Whether requests need credentials. */
  get authRequired(): boolean {
    return this.auth.required;
  }

  /** Replaces the configuration (a reload). */
  update(webConfig: WebConfig, tokens: TokensFile): void {
    this.config = webConfig;
    this.auth = new Authenticator(webConfig.basicAuthUsers, tokens);
    this.bucket = this.makeBucket();
  }

  /**
   * Checks one request against `policy`, in exporter-toolkit's order and then browser safety:
   * rate limit (429), credentials (401 with a challenge), scope (403), cross-site (403), content
   * type (415).
   */
  async check(req: http.IncomingMessage, policy: RoutePolicy): Promise<Verdict> {
    if (this.bucket !== null && !this.bucket.take()) return refuse(429, 'Too Many Requests');
    let principal: Principal = { name: 'anonymous', via: 'none', scopes: new Set() };
    if (policy.scope !== null) {
      const r = await this.auth.authenticate(header(req, 'authorization'));
      if (!r.ok) return refuse(401, r.reason === 'missing' ? 'Unauthorized: credentials required' : 'Unauthorized: invalid credentials', { 'WWW-Authenticate': this.challenges(req) });
      principal = r.principal;
      if (!principal.scopes.has(policy.scope)) return refuse(403, `Forbidden: ${principal.name} lacks the ${policy.scope} scope`);
    }
    if (policy.contentTypes !== undefined) {
      const why = crossSiteReason(req, this.corsOrigin);
      if (why !== null) return refuse(403, `Forbidden: ${why}`);
      const type = mediaType(header(req, 'content-type'));
      // A sender that is no browser may leave the type out where the receiver has a default
      // (remote write: 1.0, as Prometheus reads it); a browser page must name it.
      const omitted = type === '' && !fromBrowser(req);
      if (policy.contentTypes.length > 0 && !omitted && !policy.contentTypes.includes(type)) {
        return refuse(415, `Unsupported Media Type: want Content-Type ${policy.contentTypes.join(' or ')}, got ${JSON.stringify(header(req, 'content-type') ?? '')}`);
      }
    }
    return { ok: true, principal };
  }

  /**
   * Sets the configured response headers, and on CORS routes `Vary: Origin` always and
   * `Access-Control-Allow-Origin` only for an origin `--web.cors.origin` allows (Prometheus'
   * headers otherwise). Call before the handler writes its head.
   */
  prepare(req: http.IncomingMessage, res: http.ServerResponse, cors: boolean): void {
    for (const [k, v] of Object.entries(this.config.headers)) res.setHeader(k, v);
    if (!cors) return;
    res.setHeader('Vary', 'Origin');
    const origin = header(req, 'origin');
    if (origin === undefined || this.corsOrigin === null || !this.corsOrigin.test(origin)) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Headers', 'Accept, Authorization, Content-Type, Origin');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Expose-Headers', 'Date');
  }

  /**
   * The `WWW-Authenticate` challenges. A browser's own fetch (Sec-Fetch-Mode other than
   * `navigate`) gets only `Bearer`, so the page's login prompt answers it instead of the
   * browser's password dialog; navigations and other clients get `Basic` too (a token may be the
   * password of any user name that is not a basic-auth user).
   */
  private challenges(req: http.IncomingMessage): string[] {
    const mode = header(req, 'sec-fetch-mode');
    const bearer = `Bearer realm="${this.realm}"`;
    if (mode !== undefined && mode !== 'navigate') return [bearer];
    return [`Basic realm="${this.realm}", charset="UTF-8"`, bearer];
  }

  private makeBucket(): TokenBucket | null {
    const r = this.config.rateLimit;
    return r === null ? null : new TokenBucket(r.intervalMs, r.burst, this.clock);
  }
}

/**
 * Compiles `--web.cors.origin` as Prometheus does: the whole origin must match (`^(?:re)$`).
 * Throws a SyntaxError on an invalid expression.
 */
export function compileCorsOrigin(re: string): RegExp {
  return new RegExp(`^(?:${re})$`);
}
