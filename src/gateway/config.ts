/**
 * The gateway's configuration: its types, defaults, and `parseGatewayConfig` (YAML text →
 * validated config, with errors naming the field). docs/gateway.md is the reference; keys are
 * snake_case in YAML and camelCase here.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { parseListenAddress } from '../http/index.js';
import { compileRedaction, type DurationMs, type RedactionRule } from '../model/index.js';
import { FieldReader } from './config-reader.js';
import { GatewayConfigError } from './errors.js';

/** The identity labels a replica may carry (the model's name is the pool's). */
export const REPLICA_LABELS = ['endpoint', 'component', 'replica', 'instance', 'instance_type', 'az', 'engine'] as const;

/** One upstream engine replica: its base URL (the part before `/v1/...`) and identity labels. */
export interface ReplicaConfig {
  readonly url: string;
  readonly labels: Readonly<Partial<Record<(typeof REPLICA_LABELS)[number], string>>>;
}

/** One model: the replicas that serve it and its limits. */
export interface ModelConfig {
  /** The name clients send as `model` (and the `model` label). */
  readonly name: string;
  /** Other names clients may use. */
  readonly aliases: readonly string[];
  /** The `model` sent upstream (default: `name`). */
  readonly upstreamModel: string;
  /** Requests in flight at once; more get 429 (0: no limit). */
  readonly maxConcurrency: number;
  /** Prompt plus completion tokens per minute, a token bucket; 0: no limit. */
  readonly tokensPerMinute: number;
  /** Completion tokens reserved against the token rate when a request names no max_tokens. */
  readonly defaultMaxTokens: number;
  readonly replicas: readonly ReplicaConfig[];
}

/** The whole gateway configuration, defaults filled in. */
export interface GatewayConfig {
  /** `host:port` of the gateway's own listener. */
  readonly listen: string;
  /** The gateway's AZ: replicas there are preferred at equal load. */
  readonly localAz: string;
  /** Extra outstanding requests a replica in another AZ counts as when routing (0: AZ-blind). */
  readonly crossAzPenalty: number;
  /** How often metrics are written through the Appendable. */
  readonly flushIntervalMs: DurationMs;
  readonly limits: {
    readonly maxBodyBytes: number;
    readonly bodyTimeoutMs: DurationMs;
    readonly requestTimeoutMs: DurationMs;
    readonly maxResponseBytes: number;
  };
  readonly upstream: {
    readonly connectTimeoutMs: DurationMs;
    /** Longest silence from an upstream: before its headers and between chunks. */
    readonly idleTimeoutMs: DurationMs;
    /** Further attempts on other replicas, only before anything was sent to the client. */
    readonly retries: number;
    readonly maxSockets: number;
  };
  readonly healthCheck: {
    readonly enabled: boolean;
    readonly path: string;
    readonly intervalMs: DurationMs;
    readonly timeoutMs: DurationMs;
    readonly unhealthyThreshold: number;
    readonly healthyThreshold: number;
  };
  readonly ejection: {
    readonly consecutiveFailures: number;
    readonly baseMs: DurationMs;
    readonly maxMs: DurationMs;
    readonly maxEjectedPercent: number;
  };
  readonly sampling: {
    /** Share of requests handed to the sample sink, 0 (default, off) to 1. */
    readonly rate: number;
    readonly seed: number;
    /** JSON-lines file of the file sink ('' : none configured). */
    readonly file: string;
    /** RE2 patterns (flags folded in), applied in order by src/model's `compileRedaction`. */
    readonly redact: readonly RedactionRule[];
    /** Longest prompt or response text kept in a sample (characters). */
    readonly maxTextChars: number;
  };
  readonly models: readonly ModelConfig[];
}

function replica(value: unknown, path: string): ReplicaConfig {
  const r = new FieldReader(typeof value === 'string' ? { url: value } : value, path);
  const url = r.str('url');
  if (url === undefined) throw new GatewayConfigError(r.at('url'), 'required');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new GatewayConfigError(r.at('url'), `not a URL: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:') throw new GatewayConfigError(r.at('url'), `want an http:// URL (https upstreams are not supported yet), got ${JSON.stringify(url)}`);
  if (u.search !== '' || u.hash !== '') throw new GatewayConfigError(r.at('url'), 'want a base URL without query or fragment');
  const lr = r.child('labels');
  const labels: Record<string, string> = {};
  for (const name of REPLICA_LABELS) {
    const v = lr.str(name);
    if (v !== undefined) labels[name] = v;
  }
  lr.done();
  r.done();
  labels.replica ??= `${u.host}${u.pathname.replace(/\/$/, '')}`;
  return { url: url.replace(/\/+$/, ''), labels };
}

function model(value: unknown, path: string): ModelConfig {
  const r = new FieldReader(value, path);
  const name = r.str('name');
  if (name === undefined || name === '') throw new GatewayConfigError(r.at('name'), 'required');
  const aliases = r.list('aliases').map((a, i) => {
    if (typeof a !== 'string' || a === '') throw new GatewayConfigError(`${r.at('aliases')}[${i}]`, 'want a non-empty string');
    return a;
  });
  const replicas = r.list('replicas').map((x, i) => replica(x, `${r.at('replicas')}[${i}]`));
  const urls = new Set<string>();
  for (const [i, x] of replicas.entries()) {
    if (urls.has(x.url)) throw new GatewayConfigError(`${r.at('replicas')}[${i}].url`, `listed twice: ${x.url}`);
    urls.add(x.url);
  }
  const out: ModelConfig = {
    name,
    aliases,
    upstreamModel: r.str('upstream_model', name),
    maxConcurrency: r.num('max_concurrency', 0, { min: 0, int: true }),
    tokensPerMinute: r.num('tokens_per_minute', 0, { min: 0 }),
    defaultMaxTokens: r.num('default_max_tokens', 256, { min: 1, int: true }),
    replicas,
  };
  r.done();
  return out;
}

/** Validates a configuration value (the parsed YAML, or an object in the same snake_case shape). */
export function validateGatewayConfig(value: unknown): GatewayConfig {
  const r = new FieldReader(value, '');
  const listen = r.str('listen', '127.0.0.1:9310');
  try {
    parseListenAddress(listen);
  } catch {
    throw new GatewayConfigError('listen', `want host:port, got ${JSON.stringify(listen)}`);
  }
  const localAz = r.str('local_az', '');
  const crossAzPenalty = r.num('cross_az_penalty', localAz === '' ? 0 : 1, { min: 0 });
  const flushIntervalMs = r.duration('flush_interval', 5000);
  const l = r.child('limits');
  const limits = {
    maxBodyBytes: l.size('max_body_bytes', 4 * 1024 * 1024),
    bodyTimeoutMs: l.duration('body_timeout', 30_000),
    requestTimeoutMs: l.duration('request_timeout', 600_000),
    maxResponseBytes: l.size('max_response_bytes', 32 * 1024 * 1024),
  };
  l.done();
  const u = r.child('upstream');
  const upstream = {
    connectTimeoutMs: u.duration('connect_timeout', 5000),
    idleTimeoutMs: u.duration('idle_timeout', 300_000),
    retries: u.num('retries', 1, { min: 0, max: 10, int: true }),
    maxSockets: u.num('max_sockets', 1024, { min: 1, int: true }),
  };
  u.done();
  const h = r.child('health_check');
  const healthCheck = {
    enabled: h.bool('enabled', true),
    path: h.str('path', '/v1/models'),
    intervalMs: h.duration('interval', 10_000),
    timeoutMs: h.duration('timeout', 2000),
    unhealthyThreshold: h.num('unhealthy_threshold', 2, { min: 1, int: true }),
    healthyThreshold: h.num('healthy_threshold', 1, { min: 1, int: true }),
  };
  if (!healthCheck.path.startsWith('/')) throw new GatewayConfigError(h.at('path'), 'want a path starting with /');
  h.done();
  const e = r.child('ejection');
  const ejection = {
    consecutiveFailures: e.num('consecutive_failures', 3, { min: 1, int: true }),
    baseMs: e.duration('base_time', 10_000),
    maxMs: e.duration('max_time', 300_000),
    maxEjectedPercent: e.num('max_ejected_percent', 50, { min: 0, max: 100 }),
  };
  e.done();
  const s = r.child('sampling');
  const sampling = {
    rate: s.num('rate', 0, { min: 0, max: 1 }),
    seed: s.num('seed', 1, { int: true }),
    file: s.str('file', ''),
    maxTextChars: s.num('max_text_chars', 32_768, { min: 0, int: true }),
    redact: s.list('redact').map((x, i) => {
      const rr = new FieldReader(x, `${s.at('redact')}[${i}]`);
      const given = rr.str('pattern');
      if (given === undefined) throw new GatewayConfigError(rr.at('pattern'), 'required');
      // RE2 syntax (src/model's compileRedaction): `flags` i, m, s become an inline `(?ims)`.
      const flags = [...new Set(rr.str('flags', '').replace(/[gu]/g, ''))].join('');
      if (!/^[ims]*$/.test(flags)) throw new GatewayConfigError(rr.at('flags'), `want some of i, m, s, got ${JSON.stringify(flags)}`);
      const rule = { pattern: flags === '' ? given : `(?${flags})${given}`, replacement: rr.str('replacement', '[REDACTED]') };
      try {
        compileRedaction([rule]);
      } catch (err) {
        throw new GatewayConfigError(rr.at('pattern'), `invalid regular expression: ${(err as Error).message}`);
      }
      rr.done();
      return rule;
    }),
  };
  s.done();
  const models = r.list('models').map((m, i) => model(m, `models[${i}]`));
  const names = new Map<string, string>();
  for (const [i, m] of models.entries()) {
    for (const n of [m.name, ...m.aliases]) {
      const prev = names.get(n);
      if (prev !== undefined) throw new GatewayConfigError(`models[${i}]`, `model name ${JSON.stringify(n)} is already used by ${prev}`);
      names.set(n, `models[${i}]`);
    }
  }
  r.done();
  return { listen, localAz, crossAzPenalty, flushIntervalMs, limits, upstream, healthCheck, ejection, sampling, models };
}

/** Parses and validates YAML configuration text. Throws `GatewayConfigError`. */
export function parseGatewayConfig(text: string): GatewayConfig {
  let value: unknown;
  try {
    value = parseYaml(text, { prettyErrors: true, uniqueKeys: true });
  } catch (e) {
    throw new GatewayConfigError('', `invalid YAML: ${(e as Error).message}`);
  }
  return validateGatewayConfig(value);
}

/** Reads and validates a configuration file. */
export async function loadGatewayConfigFile(path: string): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new GatewayConfigError('', `cannot read ${path}: ${(e as Error).message}`);
  }
  return parseGatewayConfig(text);
}
