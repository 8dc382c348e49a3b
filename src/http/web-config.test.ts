import { describe, expect, it } from 'vitest';
import { parseTokens } from './tokens.js';
import { parseWebConfig } from './web-config.js';

const HASH = '$2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG';
const PEM = '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n';
const inlineTls = (extra: string): string => `tls_server_config:\n  cert: "${PEM.replace(/\n/g, '\\n')}"\n  key: "k"\n${extra}`;

describe('parseWebConfig', () => {
  it('reads exporter-toolkit\'s sample: users, headers, rate limit; no TLS without a certificate', async () => {
    const c = await parseWebConfig(
      `basic_auth_users:\n  alice: ${HASH}\nhttp_server_config:\n  http2: true\n  headers:\n    X-Frame-Options: deny\n    content-security-policy: "default-src 'self'"\nrate_limit:\n  interval: 1s\n  burst: 20\n`,
      '/',
    );
    expect(c).toEqual({
      tls: null,
      headers: { 'X-Frame-Options': 'deny', 'Content-Security-Policy': "default-src 'self'" },
      basicAuthUsers: new Map([['alice', HASH]]),
      rateLimit: { intervalMs: 1000, burst: 20 },
    });
  });

  it('maps Go names onto OpenSSL\'s', async () => {
    const c = await parseWebConfig(inlineTls('  min_version: TLS13\n  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]\n  curve_preferences: [X25519, CurveP256]\n  prefer_server_cipher_suites: false\n'), '/');
    expect(c.tls).toMatchObject({ minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', ecdhCurve: 'X25519:P-256', honorCipherOrder: false, clientAuthType: 'NoClientCert' });
  });

  it.each<[string, string, RegExp]>([
    ['an unknown top-level key', 'basic_auth_user: {}\n', /unknown field "basic_auth_user"/],
    ['an unknown TLS key', inlineTls('  client_cert: x\n'), /unknown field "client_cert"/],
    ['a key without a certificate', 'tls_server_config:\n  key: k\n', /missing cert_file/],
    ['inline and file certificate', inlineTls('  cert_file: a.crt\n'), /at most one of cert and cert_file/],
    ['a missing certificate file', 'tls_server_config:\n  cert_file: nope.crt\n  key_file: nope.key\n', /cert_file: ENOENT/],
    ['client CAs without a policy', inlineTls('  client_ca: x\n'), /Client CA's have been configured without a Client Auth Policy/],
    ['verification without CAs', inlineTls('  client_auth_type: RequireAndVerifyClientCert\n'), /needs client_ca_file/],
    ['an unknown client auth type', inlineTls('  client_auth_type: Maybe\n'), /invalid ClientAuth "Maybe"/],
    ['allowed SANs without a required certificate', inlineTls('  client_auth_type: RequestClientCert\n  client_allowed_sans: [a]\n'), /client_allowed_sans needs/],
    ['an unknown TLS version', inlineTls('  min_version: TLS14\n'), /unknown TLS version "TLS14"/],
    ['min above max', inlineTls('  min_version: TLS13\n  max_version: TLS12\n'), /min_version is above max_version/],
    ['an unknown cipher', inlineTls('  cipher_suites: [TLS_RSA_WITH_RC4_128_SHA]\n'), /unknown cipher "TLS_RSA_WITH_RC4_128_SHA"/],
    ['an unknown curve', inlineTls('  curve_preferences: [CurveP224]\n'), /unknown curve "CurveP224"/],
    ['a header that cannot be set', 'http_server_config:\n  headers:\n    Server: x\n', /HTTP header "Server" can not be configured/],
    ['a bad X-Frame-Options', 'http_server_config:\n  headers:\n    X-Frame-Options: allow\n', /Expected one of: deny, sameorigin, but got: allow/],
    ['a password instead of a hash', 'basic_auth_users:\n  alice: secret\n', /alice: not a bcrypt hash/],
    ['a bad rate limit interval', 'rate_limit:\n  interval: soon\n', /rate_limit.interval: invalid duration/],
    ['not YAML', 'a: [', /invalid YAML/],
  ])('refuses %s', async (_name, yaml, want) => {
    await expect(parseWebConfig(yaml, '/nonexistent')).rejects.toThrow(want);
  });
});

describe('parseTokens', () => {
  const H = 'ab'.repeat(32);
  it('reads tokens and user scopes', () => {
    const t = parseTokens(`tokens:\n  - name: grafana\n    sha256: ${H.toUpperCase()}\n    scopes: [read]\nbasic_auth_scopes:\n  alice: [read, admin]\n`);
    expect(t.tokens.map((x) => [x.name, x.sha256.toString('hex'), [...x.scopes]])).toEqual([['grafana', H, ['read']]]);
    expect([...(t.userScopes.get('alice') ?? [])]).toEqual(['read', 'admin']);
  });

  it.each<[string, string, RegExp]>([
    ['an unknown scope', `tokens:\n  - {name: a, sha256: ${H}, scopes: [delete]}\n`, /unknown scope "delete"/],
    ['no scopes', `tokens:\n  - {name: a, sha256: ${H}, scopes: []}\n`, /non-empty list of scopes/],
    ['a plain token instead of a hash', 'tokens:\n  - {name: a, sha256: hunter2, scopes: [read]}\n', /64 hex digits/],
    ['a name twice', `tokens:\n  - {name: a, sha256: ${H}, scopes: [read]}\n  - {name: a, sha256: ${'cd'.repeat(32)}, scopes: [read]}\n`, /"a" is listed twice/],
    ['a token twice', `tokens:\n  - {name: a, sha256: ${H}, scopes: [read]}\n  - {name: b, sha256: ${H}, scopes: [read]}\n`, /same token is listed twice/],
    ['an unknown field', `tokens:\n  - {name: a, token: x, scopes: [read]}\n`, /unknown field "token"/],
  ])('refuses %s', (_name, yaml, want) => {
    expect(() => parseTokens(yaml)).toThrow(want);
  });
});
