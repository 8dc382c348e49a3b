/**
 * The tokens file (`--web.tokens.file`, docs/security.md): bearer tokens with scopes, and the
 * scopes of the web configuration's basic-auth users. Tokens are stored as SHA-256 hashes, so the
 * file is no secret by itself; a token is high-entropy (`openssl rand -hex 32`), which is why a
 * fast hash is enough here where passwords need bcrypt.
 *
 * ```yaml
 * tokens:
 *   - name: grafana                  # shown in logs, never the token
 *     sha256: 9f86d081884c7d65...     # printf %s "$TOKEN" | sha256sum
 *     scopes: [read]
 * basic_auth_scopes:                 # optional; a user not listed has every scope
 *   alice: [read]
 * ```
 */
import { parse as parseYaml } from 'yaml';
import { WebConfigError, loadConfigFile } from './web-config.js';

/** What a credential may do: `read` (queries, UI, status), `write` (receivers, gateway completions), `admin` (lifecycle, admin and fault APIs). */
export type Scope = 'read' | 'write' | 'admin';

/** Every scope, in order. */
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** One bearer token of the file. */
export interface TokenEntry {
  readonly name: string;
  /** The SHA-256 of the token, 32 bytes. */
  readonly sha256: Buffer;
  readonly scopes: ReadonlySet<Scope>;
}

/** A parsed tokens file. */
export interface TokensFile {
  readonly tokens: readonly TokenEntry[];
  /** Scopes of basic-auth users; a user not listed has every scope. */
  readonly userScopes: ReadonlyMap<string, ReadonlySet<Scope>>;
}

/** No tokens, every basic-auth user with every scope. */
export const EMPTY_TOKENS: TokensFile = { tokens: [], userScopes: new Map() };

function scopes(v: unknown, where: string): Set<Scope> {
  if (!Array.isArray(v) || v.length === 0) throw new WebConfigError(`${where}: want a non-empty list of scopes (${SCOPES.join(', ')})`);
  for (const s of v) if (!SCOPES.includes(s as Scope)) throw new WebConfigError(`${where}: unknown scope ${JSON.stringify(s)} (known: ${SCOPES.join(', ')})`);
  return new Set(v as Scope[]);
}

/** Parses the text of a tokens file; errors name the entry and field. */
export function parseTokens(text: string): TokensFile {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (e) {
    throw new WebConfigError(`invalid YAML: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) return EMPTY_TOKENS;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new WebConfigError('tokens file: want a mapping');
  const top = doc as Record<string, unknown>;
  for (const k of Object.keys(top)) if (k !== 'tokens' && k !== 'basic_auth_scopes') throw new WebConfigError(`tokens file: unknown field ${JSON.stringify(k)} (known: tokens, basic_auth_scopes)`);
  const list = top.tokens ?? [];
  if (!Array.isArray(list)) throw new WebConfigError('tokens: want a list');
  const names = new Set<string>();
  const hashes = new Set<string>();
  const tokens = list.map((raw: unknown, i): TokenEntry => {
    const where = `tokens[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new WebConfigError(`${where}: want a mapping`);
    const e = raw as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!['name', 'sha256', 'scopes'].includes(k)) throw new WebConfigError(`${where}: unknown field ${JSON.stringify(k)} (known: name, sha256, scopes)`);
    if (typeof e.name !== 'string' || e.name === '') throw new WebConfigError(`${where}.name: want a non-empty string`);
    if (names.has(e.name)) throw new WebConfigError(`${where}.name: ${JSON.stringify(e.name)} is listed twice`);
    names.add(e.name);
    const hex = typeof e.sha256 === 'string' ? e.sha256.trim().toLowerCase() : '';
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new WebConfigError(`${where}.sha256: want the 64 hex digits of the token's SHA-256 (printf %s "$TOKEN" | sha256sum)`);
    if (hashes.has(hex)) throw new WebConfigError(`${where}.sha256: the same token is listed twice`);
    hashes.add(hex);
    return { name: e.name, sha256: Buffer.from(hex, 'hex'), scopes: scopes(e.scopes, `${where}.scopes`) };
  });
  const userScopes = new Map<string, ReadonlySet<Scope>>();
  const users = top.basic_auth_scopes ?? {};
  if (typeof users !== 'object' || users === null || Array.isArray(users)) throw new WebConfigError('basic_auth_scopes: want a mapping of user names to scope lists');
  for (const [user, list] of Object.entries(users)) userScopes.set(user, scopes(list, `basic_auth_scopes.${user}`));
  return { tokens, userScopes };
}

/** Reads and parses a tokens file (`--web.tokens.file`); errors name the file. */
export function loadTokens(file: string): Promise<TokensFile> {
  return loadConfigFile(file, parseTokens);
}
