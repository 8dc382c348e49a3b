/**
 * Prometheus' `--web.config.file` (the exporter-toolkit format, docs/security.md): TLS server
 * settings, response headers, basic-auth users with bcrypt hashes and a rate limit. The file is
 * checked as strictly as exporter-toolkit checks it (unknown keys, a key without a certificate,
 * client CAs without a client auth policy, headers it cannot set are errors), and files it names
 * are read relative to the file's own directory.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseDurationMs, type DurationMs, type ErrorSpec } from '../model/index.js';
import { HTTP_ERRORS } from './errors.js';

/** An invalid web configuration or tokens file; the message names the field. */
export class WebConfigError extends Error {
  /** Stable code for callers that map errors (docs/errors.md). */
  readonly code = HTTP_ERRORS.WEB_CONFIG.code;

  /** The registry entry of `code`. */
  get spec(): ErrorSpec {
    return HTTP_ERRORS.WEB_CONFIG;
  }
}

/** Go's `tls.ClientAuthType` names, as the file spells them. */
export type ClientAuthType = 'NoClientCert' | 'RequestClientCert' | 'RequireAnyClientCert' | 'VerifyClientCertIfGiven' | 'RequireAndVerifyClientCert';

/** Node's names of the TLS versions. */
export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/** `tls_server_config`, with the PEM texts read and Go's names turned into OpenSSL's. */
export interface TlsServerConfig {
  readonly cert: string;
  readonly key: string;
  /** PEM of the CAs that client certificates are verified against. */
  readonly clientCa: string | null;
  readonly clientAuthType: ClientAuthType;
  /** SANs (DNS, IP, e-mail, URI) one of which a client certificate must carry; empty: any. */
  readonly clientAllowedSans: readonly string[];
  readonly minVersion: TlsVersion;
  readonly maxVersion: TlsVersion;
  /** OpenSSL cipher list for TLS 1.2 and below, or null for Node's defaults. */
  readonly ciphers: string | null;
  readonly honorCipherOrder: boolean;
  /** OpenSSL group list (`P-256:X25519`), or null for Node's defaults. */
  readonly ecdhCurve: string | null;
}

/** A parsed web configuration file. */
export interface WebConfig {
  /** Null: plain HTTP (no `tls_server_config`, or one without a certificate). */
  readonly tls: TlsServerConfig | null;
  /** Headers added to every response (`http_server_config.headers`). */
  readonly headers: Readonly<Record<string, string>>;
  /** User name → bcrypt hash. Empty: no basic authentication. */
  readonly basicAuthUsers: ReadonlyMap<string, string>;
  /** A token bucket over all requests, or null. */
  readonly rateLimit: { readonly intervalMs: DurationMs; readonly burst: number } | null;
}

/** The configuration in force when no file is given: HTTP, no users, no headers. */
export const EMPTY_WEB_CONFIG: WebConfig = { tls: null, headers: {}, basicAuthUsers: new Map(), rateLimit: null };

const TLS_VERSIONS: Readonly<Record<string, TlsVersion>> = { TLS10: 'TLSv1', TLS11: 'TLSv1.1', TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' };
const VERSION_ORDER: readonly TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
const CLIENT_AUTH_TYPES: readonly ClientAuthType[] = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'];

/**
 * Go's cipher suite names (`tls.CipherSuites()`) and OpenSSL's. The TLS 1.3 suites are accepted
 * and have no effect, as in Go, where TLS 1.3 suites are not configurable.
 */
const CIPHER_SUITES: Readonly<Record<string, string | null>> = {
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_AES_128_GCM_SHA256: null,
  TLS_AES_256_GCM_SHA384: null,
  TLS_CHACHA20_POLY1305_SHA256: null,
};

/** Go's `tls.CurveID` names and OpenSSL's group names. */
const CURVES: Readonly<Record<string, string>> = { CurveP256: 'P-256', CurveP384: 'P-384', CurveP521: 'P-521', X25519: 'X25519' };

/** The headers `http_server_config.headers` may set, with the values some of them are limited to (exporter-toolkit's list). */
const HEADERS: Readonly<Record<string, readonly string[] | null>> = {
  'Content-Security-Policy': null,
  'X-Frame-Options': ['deny', 'sameorigin'],
  'X-Content-Type-Options': ['nosniff'],
  'X-XSS-Protection': null,
  'Strict-Transport-Security': null,
};

/** A bcrypt hash as htpasswd and bcrypt libraries write it (`$2y$10$` and 53 characters). */
const BCRYPT_HASH = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

type Obj = Record<string, unknown>;

function object(v: unknown, where: string): Obj {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new WebConfigError(`${where}: want a mapping`);
  return v as Obj;
}

function only(o: Obj, where: string, keys: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new WebConfigError(`${where}: unknown field ${JSON.stringify(k)} (known: ${keys.join(', ')})`);
  }
}

function str(v: unknown, where: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new WebConfigError(`${where}: want a string`);
  return v;
}

function strings(v: unknown, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new WebConfigError(`${where}: want a list of strings`);
  return v;
}

/** Reads the PEM text given inline (`cert`) or as a file (`cert_file`), or '' for neither; both is an error. */
async function pem(o: Obj, inline: string, file: string, dir: string): Promise<string> {
  const text = str(o[inline], `tls_server_config.${inline}`);
  const name = str(o[file], `tls_server_config.${file}`);
  if (text !== '' && name !== '') throw new WebConfigError(`tls_server_config: at most one of ${inline} and ${file} must be configured`);
  if (name === '') return text;
  try {
    return await fs.readFile(path.resolve(dir, name), 'utf8');
  } catch (e) {
    throw new WebConfigError(`tls_server_config.${file}: ${(e as Error).message}`);
  }
}

function version(v: unknown, where: string, fallback: TlsVersion): TlsVersion {
  const name = str(v, where);
  if (name === '') return fallback;
  const out = TLS_VERSIONS[name] as TlsVersion | undefined;
  if (out === undefined) throw new WebConfigError(`${where}: unknown TLS version ${JSON.stringify(name)} (known: ${Object.keys(TLS_VERSIONS).join(', ')})`);
  return out;
}

async function parseTls(raw: unknown, dir: string): Promise<TlsServerConfig | null> {
  const o = object(raw, 'tls_server_config');
  only(o, 'tls_server_config', [
    'cert', 'key', 'client_ca', 'cert_file', 'key_file', 'client_auth_type', 'client_ca_file', 'client_allowed_sans',
    'min_version', 'max_version', 'cipher_suites', 'prefer_server_cipher_suites', 'curve_preferences',
  ]);
  const cert = await pem(o, 'cert', 'cert_file', dir);
  const key = await pem(o, 'key', 'key_file', dir);
  const clientCa = await pem(o, 'client_ca', 'client_ca_file', dir);
  if (cert === '' && key === '') return null;
  if (cert === '') throw new WebConfigError('tls_server_config: missing cert_file');
  if (key === '') throw new WebConfigError('tls_server_config: missing key_file');
  const authName = str(o.client_auth_type, 'tls_server_config.client_auth_type') || 'NoClientCert';
  if (!CLIENT_AUTH_TYPES.includes(authName as ClientAuthType)) {
    throw new WebConfigError(`tls_server_config.client_auth_type: invalid ClientAuth ${JSON.stringify(authName)} (known: ${CLIENT_AUTH_TYPES.join(', ')})`);
  }
  const clientAuthType = authName as ClientAuthType;
  if (clientCa !== '' && clientAuthType === 'NoClientCert') throw new WebConfigError("tls_server_config: Client CA's have been configured without a Client Auth Policy");
  if (clientCa === '' && (clientAuthType === 'VerifyClientCertIfGiven' || clientAuthType === 'RequireAndVerifyClientCert')) {
    throw new WebConfigError(`tls_server_config: client_auth_type ${clientAuthType} needs client_ca_file`);
  }
  const sans = strings(o.client_allowed_sans, 'tls_server_config.client_allowed_sans');
  if (sans.length > 0 && clientAuthType !== 'RequireAnyClientCert' && clientAuthType !== 'RequireAndVerifyClientCert') {
    throw new WebConfigError('tls_server_config: client_allowed_sans needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert');
  }
  const minVersion = version(o.min_version, 'tls_server_config.min_version', 'TLSv1.2');
  const maxVersion = version(o.max_version, 'tls_server_config.max_version', 'TLSv1.3');
  if (VERSION_ORDER.indexOf(minVersion) > VERSION_ORDER.indexOf(maxVersion)) throw new WebConfigError('tls_server_config: min_version is above max_version');
  const suites = strings(o.cipher_suites, 'tls_server_config.cipher_suites').map((name) => {
    if (!(name in CIPHER_SUITES)) throw new WebConfigError(`tls_server_config.cipher_suites: unknown cipher ${JSON.stringify(name)}`);
    return CIPHER_SUITES[name];
  });
  const openssl = suites.filter((s): s is string => s !== null);
  const curves = strings(o.curve_preferences, 'tls_server_config.curve_preferences').map((name) => {
    const c = CURVES[name] as string | undefined;
    if (c === undefined) throw new WebConfigError(`tls_server_config.curve_preferences: unknown curve ${JSON.stringify(name)} (known: ${Object.keys(CURVES).join(', ')})`);
    return c;
  });
  const prefer = o.prefer_server_cipher_suites;
  if (prefer !== undefined && prefer !== null && typeof prefer !== 'boolean') throw new WebConfigError('tls_server_config.prefer_server_cipher_suites: want true or false');
  return {
    cert,
    key,
    clientCa: clientCa === '' ? null : clientCa,
    clientAuthType,
    clientAllowedSans: sans,
    minVersion,
    maxVersion,
    ciphers: openssl.length === 0 ? null : openssl.join(':'),
    honorCipherOrder: prefer !== false,
    ecdhCurve: curves.length === 0 ? null : curves.join(':'),
  };
}

function parseHeaders(raw: unknown): Record<string, string> {
  const server = object(raw, 'http_server_config');
  only(server, 'http_server_config', ['http2', 'headers']);
  if (server.http2 !== undefined && server.http2 !== null && typeof server.http2 !== 'boolean') throw new WebConfigError('http_server_config.http2: want true or false');
  const headers = object(server.headers, 'http_server_config.headers');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const known = Object.keys(HEADERS).find((h) => h.toLowerCase() === name.toLowerCase());
    if (known === undefined) throw new WebConfigError(`http_server_config.headers: HTTP header ${JSON.stringify(name)} can not be configured`);
    const v = str(value, `http_server_config.headers.${name}`);
    if (v === '') continue;
    const allowed = HEADERS[known];
    if (allowed !== null && !allowed.includes(v.toLowerCase())) {
      throw new WebConfigError(`http_server_config.headers: invalid value for ${known}. Expected one of: ${allowed.join(', ')}, but got: ${v}`);
    }
    out[known] = v;
  }
  return out;
}

function parseUsers(raw: unknown): Map<string, string> {
  const users = new Map<string, string>();
  for (const [name, hash] of Object.entries(object(raw, 'basic_auth_users'))) {
    const h = str(hash, `basic_auth_users.${name}`);
    if (!BCRYPT_HASH.test(h)) throw new WebConfigError(`basic_auth_users.${name}: not a bcrypt hash (htpasswd -nBC 10 "" | tr -d ':\\n' makes one)`);
    users.set(name, h);
  }
  return users;
}

function parseRateLimit(raw: unknown): WebConfig['rateLimit'] {
  if (raw === undefined || raw === null) return null;
  const o = object(raw, 'rate_limit');
  only(o, 'rate_limit', ['interval', 'burst']);
  const text = o.interval === undefined || o.interval === null ? '0s' : str(o.interval, 'rate_limit.interval');
  const intervalMs = parseDurationMs(text);
  if (intervalMs === undefined) throw new WebConfigError(`rate_limit.interval: invalid duration ${JSON.stringify(text)}`);
  const burst = o.burst ?? 0;
  if (typeof burst !== 'number' || !Number.isSafeInteger(burst) || burst < 0) throw new WebConfigError('rate_limit.burst: want a non-negative integer');
  return intervalMs === 0 ? null : { intervalMs, burst: Math.max(1, burst) };
}

/**
 * Parses the text of a web configuration file. `dir` is the directory that relative file names
 * (`cert_file`, `key_file`, `client_ca_file`) resolve against: the file's own directory.
 */
export async function parseWebConfig(text: string, dir: string): Promise<WebConfig> {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (e) {
    throw new WebConfigError(`invalid YAML: ${(e as Error).message}`);
  }
  const top = object(doc, 'web configuration');
  only(top, 'web configuration', ['tls_server_config', 'http_server_config', 'basic_auth_users', 'rate_limit']);
  return {
    tls: await parseTls(top.tls_server_config, dir),
    headers: parseHeaders(top.http_server_config),
    basicAuthUsers: parseUsers(top.basic_auth_users),
    rateLimit: parseRateLimit(top.rate_limit),
  };
}

/** Reads `file` and parses its text with `parse`; a failure of either is a `WebConfigError` naming the file. */
export async function loadConfigFile<T>(file: string, parse: (text: string) => T | Promise<T>): Promise<T> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new WebConfigError(`reading ${file}: ${(e as Error).message}`);
  }
  try {
    return await parse(text);
  } catch (e) {
    throw new WebConfigError(`${file}: ${(e as Error).message}`);
  }
}

/** Reads and parses a web configuration file (`--web.config.file`); errors name the file. */
export function loadWebConfig(file: string): Promise<WebConfig> {
  return loadConfigFile(file, (text) => parseWebConfig(text, path.dirname(path.resolve(file))));
}
