/**
 * The Node-side HTTP leaf module: what the server, the gateway and the receivers' listeners
 * share — the web configuration (`--web.config.file`), the tokens file, authentication, the
 * per-route request guard (scopes, browser safety, CORS), HTTP/HTTPS server creation and reading
 * request bodies under size and time limits, and listen addresses (`:9300` is all interfaces).
 * Imports only `model`.
 */
export { Authenticator, type AuthResult, type Principal } from './authenticator.js';
export { BACKSTOP_REQUEST_TIMEOUT_MS, DEFAULT_BODY_TIMEOUTS, bodyProblemStatus, isClientAbort, readBody, type BodyProblem, type BodyReadOptions, type BodyReadSettings, type BodyResult, type BodyTimeouts } from './body.js';
export { RequestGuard, compileCorsOrigin, crossSiteReason, mediaType, type GuardOptions, type Refusal, type RoutePolicy, type Verdict } from './guard.js';
export { formatHostPort, listenOn, parseListenAddress, type ListenAddress } from './listen.js';
export { requestUrl } from './request-url.js';
export { clientCertProblem, createWebServer, secureContextOptions, type ReloadableServer, type WebServerOptions } from './server.js';
export { EMPTY_TOKENS, SCOPES, loadTokens, parseTokens, type Scope, type TokenEntry, type TokensFile } from './tokens.js';
export { EMPTY_WEB_CONFIG, WebConfigError, loadWebConfig, parseWebConfig, type ClientAuthType, type TlsServerConfig, type TlsVersion, type WebConfig } from './web-config.js';
export { HTTP_ERRORS, HttpErrorCode } from './errors.js';
