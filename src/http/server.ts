/**
 * An HTTP or HTTPS server from a web configuration's `tls_server_config`: certificates, TLS
 * versions, cipher suites, curves, and the client certificate policy of Go's `ClientAuthType`.
 */
import http from 'node:http';
import https from 'node:https';
import type tls from 'node:tls';
import type { TlsServerConfig } from './web-config.js';

/** Options of `createWebServer` beyond TLS. */
export interface WebServerOptions {
  /** Largest request line plus headers (Node's `maxHeaderSize`). */
  readonly maxHeaderSize?: number;
  readonly noDelay?: boolean;
  /** Node's `requestTimeout` (0: none). */
  readonly requestTimeout?: number;
}

/** Node's secure-context options for a TLS server configuration. */
export function secureContextOptions(t: TlsServerConfig): tls.SecureContextOptions {
  return {
    cert: t.cert,
    key: t.key,
    ...(t.clientCa === null ? {} : { ca: t.clientCa }),
    minVersion: t.minVersion,
    maxVersion: t.maxVersion,
    ...(t.ciphers === null ? {} : { ciphers: t.ciphers }),
    honorCipherOrder: t.honorCipherOrder,
    ...(t.ecdhCurve === null ? {} : { ecdhCurve: t.ecdhCurve }),
  };
}

/** The SANs of a peer certificate (`DNS:a, IP Address:1.2.3.4, email:x, URI:y`), values only. */
function sans(cert: tls.PeerCertificate): string[] {
  const text = cert.subjectaltname ?? '';
  return text === '' ? [] : text.split(', ').map((s) => s.slice(s.indexOf(':') + 1));
}

/**
 * Why a TLS connection breaks the client certificate policy, or null. Go decides this in the
 * handshake; Node gives the verdict after it (`authorized`), so the connection is closed at once.
 */
export function clientCertProblem(t: TlsServerConfig, socket: tls.TLSSocket): string | null {
  const cert = socket.getPeerCertificate();
  const has = Object.keys(cert).length > 0;
  switch (t.clientAuthType) {
    case 'NoClientCert':
    case 'RequestClientCert':
      return null;
    case 'RequireAnyClientCert':
      if (!has) return 'no client certificate';
      break;
    case 'VerifyClientCertIfGiven':
      if (has && !socket.authorized) return `client certificate not verified: ${String(socket.authorizationError)}`;
      return null;
    case 'RequireAndVerifyClientCert':
      if (!has) return 'no client certificate';
      if (!socket.authorized) return `client certificate not verified: ${String(socket.authorizationError)}`;
      break;
  }
  if (t.clientAllowedSans.length > 0 && !sans(cert).some((s) => t.clientAllowedSans.includes(s))) return 'client certificate SAN not allowed';
  return null;
}

/**
 * Creates the server: plain HTTP when `tlsConfig` is null, else HTTPS with the configuration's
 * certificates and client policy. `onTlsRefused` hears of each connection closed for its client
 * certificate. `reloadTls` on the result swaps certificates without a restart (a reload).
 */
export function createWebServer(
  tlsConfig: TlsServerConfig | null,
  options: WebServerOptions,
  handler: http.RequestListener,
  onTlsRefused?: (reason: string) => void,
): http.Server {
  const common = { maxHeaderSize: options.maxHeaderSize, noDelay: options.noDelay, requestTimeout: options.requestTimeout };
  if (tlsConfig === null) return http.createServer(common, handler);
  let current = tlsConfig;
  const requestCert = current.clientAuthType !== 'NoClientCert';
  const server = https.createServer({ ...common, ...secureContextOptions(current), requestCert, rejectUnauthorized: current.clientAuthType === 'RequireAndVerifyClientCert' }, handler);
  server.on('secureConnection', (socket: tls.TLSSocket) => {
    const problem = clientCertProblem(current, socket);
    if (problem === null) return;
    onTlsRefused?.(problem);
    socket.destroy();
  });
  (server as ReloadableServer).reloadTls = (next: TlsServerConfig) => {
    server.setSecureContext(secureContextOptions(next));
    current = next;
  };
  return server;
}

/** A server made by `createWebServer` with TLS: its certificates can be swapped. */
export interface ReloadableServer extends http.Server {
  /** Applies new certificates and settings to new connections (the client auth type needs a restart). */
  reloadTls?: (next: TlsServerConfig) => void;
}
