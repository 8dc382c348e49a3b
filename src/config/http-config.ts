import path from 'node:path';
import type { YamlNode } from './yaml-reader.js';

/** `tls_config`: file paths are resolved against the config file's directory. */
export interface TlsConfig {
  readonly ca: string;
  readonly caFile: string;
  readonly cert: string;
  readonly certFile: string;
  readonly key: string;
  readonly keyFile: string;
  readonly serverName: string;
  readonly insecureSkipVerify: boolean;
}

/** The HTTP client part of a scrape config (Prometheus' inlined `HTTPClientConfig`). */
export interface HttpClientConfig {
  readonly basicAuth?: { readonly username: string; readonly password: string; readonly passwordFile: string };
  /** `authorization`, or the legacy `bearer_token` / `bearer_token_file` turned into one (type Bearer). */
  readonly authorization?: { readonly type: string; readonly credentials: string; readonly credentialsFile: string };
  readonly tls: TlsConfig;
  readonly followRedirects: boolean;
  readonly enableHttp2: boolean;
}

/** The HTTP client fields Infersight reads; the keys of a scrape config that belong to the HTTP client. */
export const HTTP_CLIENT_FIELDS = ['basic_auth', 'authorization', 'bearer_token', 'bearer_token_file', 'tls_config', 'follow_redirects', 'enable_http2'];

/** HTTP client fields Prometheus has and Infersight refuses (rather than silently ignoring). */
export const UNSUPPORTED_HTTP_FIELDS = ['oauth2', 'proxy_url', 'no_proxy', 'proxy_from_environment', 'proxy_connect_header'];

const joinDir = (dir: string, file: string): string => (file === '' || path.isAbsolute(file) ? file : path.join(dir, file));

function parseTls(node: YamlNode | undefined, dir: string): TlsConfig {
  const f = node?.struct('config.TLSConfig', ['ca', 'ca_file', 'cert', 'cert_file', 'key', 'key_file', 'server_name', 'insecure_skip_verify', 'min_version']) ?? {};
  const t: TlsConfig = {
    ca: f.ca?.string() ?? '',
    caFile: joinDir(dir, f.ca_file?.string() ?? ''),
    cert: f.cert?.string() ?? '',
    certFile: joinDir(dir, f.cert_file?.string() ?? ''),
    key: f.key?.string() ?? '',
    keyFile: joinDir(dir, f.key_file?.string() ?? ''),
    serverName: f.server_name?.string() ?? '',
    insecureSkipVerify: f.insecure_skip_verify?.bool() ?? false,
  };
  if (f.min_version !== undefined) {
    const v = f.min_version.string();
    if (!['TLS10', 'TLS11', 'TLS12', 'TLS13'].includes(v)) f.min_version.fail(`unknown TLS version: ${v}`);
  }
  const at = node as YamlNode;
  if (t.ca !== '' && t.caFile !== '') at.fail('at most one of ca and ca_file must be configured');
  if (t.cert !== '' && t.certFile !== '') at.fail('at most one of cert and cert_file must be configured');
  if (t.key !== '' && t.keyFile !== '') at.fail('at most one of key and key_file must be configured');
  const usingCert = t.cert !== '' || t.certFile !== '';
  const usingKey = t.key !== '' || t.keyFile !== '';
  if (usingCert && !usingKey) at.fail('exactly one of key or key_file must be configured when a client certificate is configured');
  if (usingKey && !usingCert) at.fail('exactly one of cert or cert_file must be configured when a client key is configured');
  return t;
}

/**
 * Reads and validates the HTTP client fields of one scrape config with the checks and messages
 * of Prometheus' `HTTPClientConfig.Validate`. `at` is the scrape config node (for messages).
 */
export function parseHttpClientConfig(f: Partial<Record<string, YamlNode>>, at: YamlNode, dir: string): HttpClientConfig {
  for (const name of UNSUPPORTED_HTTP_FIELDS) {
    if (f[name] !== undefined) f[name].fail(`${name} is not supported by Infersight's scraper`);
  }
  let basicAuth: HttpClientConfig['basicAuth'];
  if (f.basic_auth !== undefined && !f.basic_auth.isNull()) {
    const b = f.basic_auth.struct('config.BasicAuth', ['username', 'password', 'password_file']);
    basicAuth = { username: b.username?.string() ?? '', password: b.password?.string() ?? '', passwordFile: joinDir(dir, b.password_file?.string() ?? '') };
    if (basicAuth.password !== '' && basicAuth.passwordFile !== '') f.basic_auth.fail('at most one of basic_auth password & password_file must be configured');
  }
  const bearer = f.bearer_token?.string() ?? '';
  const bearerFile = joinDir(dir, f.bearer_token_file?.string() ?? '');
  if (bearer !== '' && bearerFile !== '') at.fail('at most one of bearer_token & bearer_token_file must be configured');
  if (basicAuth !== undefined && (bearer !== '' || bearerFile !== '')) at.fail('at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured');
  let authorization: HttpClientConfig['authorization'];
  if (f.authorization !== undefined && !f.authorization.isNull()) {
    const node = f.authorization;
    const a = node.struct('config.Authorization', ['type', 'credentials', 'credentials_file']);
    if (bearer !== '' || bearerFile !== '') node.fail('authorization is not compatible with bearer_token & bearer_token_file');
    const credentials = a.credentials?.string() ?? '';
    const credentialsFile = joinDir(dir, a.credentials_file?.string() ?? '');
    if (credentials !== '' && credentialsFile !== '') node.fail('at most one of authorization credentials & credentials_file must be configured');
    const type = (a.type?.string() ?? '').trim() || 'Bearer';
    if (type.toLowerCase() === 'basic') node.fail('authorization type cannot be set to "basic", use "basic_auth" instead');
    if (basicAuth !== undefined) node.fail('at most one of basic_auth, oauth2 & authorization must be configured');
    authorization = { type, credentials, credentialsFile };
  } else if (bearer !== '' || bearerFile !== '') {
    authorization = { type: 'Bearer', credentials: bearer, credentialsFile: bearerFile };
  }
  return {
    ...(basicAuth === undefined ? {} : { basicAuth }),
    ...(authorization === undefined ? {} : { authorization }),
    tls: parseTls(f.tls_config, dir),
    followRedirects: f.follow_redirects?.bool() ?? true,
    enableHttp2: f.enable_http2?.bool() ?? true,
  };
}

/** Reads a file as text; injected so tests need no files. */
export type ReadTextFile = (file: string) => Promise<string>;

/**
 * The `Authorization` header value for a scrape (files are read at every scrape, as Prometheus
 * does, so rotated secrets apply without a reload), or undefined for none. Throws when a file
 * cannot be read.
 */
export async function authorizationHeader(c: HttpClientConfig, readFile: ReadTextFile): Promise<string | undefined> {
  if (c.basicAuth !== undefined) {
    const b = c.basicAuth;
    let password = b.password;
    if (b.passwordFile !== '') {
      try {
        password = (await readFile(b.passwordFile)).trim();
      } catch (e) {
        throw new Error(`unable to read basic auth password file ${b.passwordFile}: ${(e as Error).message}`);
      }
    }
    return `Basic ${Buffer.from(`${b.username}:${password}`, 'utf8').toString('base64')}`;
  }
  if (c.authorization !== undefined) {
    const a = c.authorization;
    let credentials = a.credentials;
    if (a.credentialsFile !== '') {
      try {
        credentials = (await readFile(a.credentialsFile)).trim();
      } catch (e) {
        throw new Error(`unable to read authorization credentials file ${a.credentialsFile}: ${(e as Error).message}`);
      }
    }
    return `${a.type} ${credentials}`;
  }
  return undefined;
}
