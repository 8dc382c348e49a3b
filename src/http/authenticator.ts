/**
 * Who is asking: basic-auth users of the web configuration (bcrypt) and bearer tokens of the
 * tokens file (SHA-256), each with its scopes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { compare } from 'bcryptjs';
import { SCOPES, type Scope, type TokenEntry, type TokensFile } from './tokens.js';

/** An authenticated caller. */
export interface Principal {
  /** The user name or the token's name; `anonymous` when no authentication is configured. */
  readonly name: string;
  readonly via: 'basic' | 'bearer' | 'none';
  readonly scopes: ReadonlySet<Scope>;
}

/** The result of `Authenticator.authenticate`: a principal, or why there is none. */
export type AuthResult = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);
const ANONYMOUS: Principal = { name: 'anonymous', via: 'none', scopes: ALL_SCOPES };

/** bcrypt results kept, so that each request does not pay bcrypt's cost again (exporter-toolkit caches them too). */
const CACHE_ENTRIES = 1024;

/**
 * A hash of the same cost as htpasswd's default, compared against when the user is unknown, so
 * that a wrong user name takes as long as a wrong password (exporter-toolkit does the same).
 */
const DUMMY_HASH = '$2b$10$Tumrf4ZIiftgmiMUS7q6u.EfpND/ymO32j8Ljd/WFwYRfeYAq18kq';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks `Authorization` headers against basic-auth users and bearer tokens. `Basic` credentials
 * whose user name is not a basic-auth user are taken as a token in the password field (any user
 * name), so that a browser's password dialog can carry a token. Concurrent checks of the same
 * credentials share one bcrypt computation; results are cached in memory, keyed by a hash of user,
 * stored hash and password (never the password itself).
 */
export class Authenticator {
  private readonly cache = new Map<string, Promise<boolean>>();

  constructor(
    private readonly users: ReadonlyMap<string, string>,
    private readonly tokens: TokensFile,
  ) {}

  /** Whether any credential is configured; when not, every request is the anonymous principal with every scope. */
  get required(): boolean {
    return this.users.size > 0 || this.tokens.tokens.length > 0;
  }

  /** Whether basic-auth users are configured (a `Basic` challenge then makes sense). */
  get hasUsers(): boolean {
    return this.users.size > 0;
  }

  /** Authenticates an `Authorization` header value (undefined when the request had none). */
  async authenticate(authorization: string | undefined): Promise<AuthResult> {
    if (!this.required) return { ok: true, principal: ANONYMOUS };
    if (authorization === undefined || authorization.trim() === '') return { ok: false, reason: 'missing' };
    const space = authorization.indexOf(' ');
    const scheme = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : authorization.slice(space + 1).trim();
    if (scheme === 'bearer') {
      const t = this.token(value);
      return t === undefined ? { ok: false, reason: 'invalid' } : { ok: true, principal: { name: t.name, via: 'bearer', scopes: t.scopes } };
    }
    if (scheme !== 'basic') return { ok: false, reason: 'invalid' };
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { ok: false, reason: 'invalid' };
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const hash = this.users.get(user);
    if (hash === undefined) {
      const t = this.token(password);
      if (t !== undefined) return { ok: true, principal: { name: t.name, via: 'bearer', scopes: t.scopes } };
      await this.bcrypt(user, DUMMY_HASH, password);
      return { ok: false, reason: 'invalid' };
    }
    if (!(await this.bcrypt(user, hash, password))) return { ok: false, reason: 'invalid' };
    return { ok: true, principal: { name: user, via: 'basic', scopes: this.tokens.userScopes.get(user) ?? ALL_SCOPES } };
  }

  /** The token entry whose hash matches, compared in constant time per entry. */
  private token(presented: string): TokenEntry | undefined {
    if (presented === '') return undefined;
    const h = sha256(presented);
    let found: TokenEntry | undefined;
    for (const t of this.tokens.tokens) if (timingSafeEqual(h, t.sha256)) found = t;
    return found;
  }

  private bcrypt(user: string, hash: string, password: string): Promise<boolean> {
    const key = sha256(`${user}\u0000${hash}\u0000${password}`).toString('hex');
    let p = this.cache.get(key);
    if (p === undefined) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
      p = compare(password, hash).catch(() => false);
      this.cache.set(key, p);
    }
    return p;
  }
}
