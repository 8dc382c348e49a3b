import { Labels, type DurationMs, type UnixMs } from '../../model/index.js';
import type { ParsedFamily } from '../../wire/index.js';
import type { ScrapeConfig } from './config.js';
import { checkTargetAddress, formatPromDuration, LabelsBuilder, parsePromDuration, relabelBuilder, type TargetGroup } from '../../config/index.js';

/** A target's state as `/api/v1/targets` reports it. */
export type TargetHealth = 'up' | 'down' | 'unknown';

/** Go's `net.SplitHostPort`, reduced to whether it succeeds. */
function splitsHostPort(s: string): boolean {
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0 || s[end + 1] !== ':') return false;
    return !/[[\]]/.test(s.slice(1, end)) && !/[[\]:]/.test(s.slice(end + 2));
  }
  const i = s.lastIndexOf(':');
  if (i < 0) return false;
  const host = s.slice(0, i);
  return !host.includes(':') && !/[[\]]/.test(s);
}

const FNV64_OFFSET = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const MASK64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a over the UTF-8 bytes of `s`. */
export function fnv64a(s: string): bigint {
  let h = FNV64_OFFSET;
  for (const b of Buffer.from(s, 'utf8')) h = ((h ^ BigInt(b)) * FNV64_PRIME) & MASK64;
  return h;
}

const escapeBytes = (ch: string): string => [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** Go's `url.PathEscape` rules for a whole path (`/` kept). */
const escapePath = (p: string): string => p.replace(/[^A-Za-z0-9\-_.~$&+,/:;=@]/gu, escapeBytes);
/** Go's `url.QueryEscape`. */
const escapeQuery = (s: string): string => s.replace(/[^A-Za-z0-9\-_.~ ]/gu, escapeBytes).replace(/ /g, '+');

/**
 * One scrape target: its final labels (internal `__` labels included, `__meta_*` removed), the
 * labels service discovery gave it, and the state the scrape loop reports into.
 */
export class Target {
  /** 'unknown' until the first scrape ends. */
  health: TargetHealth = 'unknown';
  /** The last scrape's error ('' after a successful one). */
  lastError = '';
  /** When the last scrape started; undefined before the first. */
  lastScrapeMs: UnixMs | undefined;
  lastScrapeDurationMs: DurationMs = 0;
  /** Metric metadata (HELP, TYPE, UNIT) of the last successful scrape. */
  metadata: readonly ParsedFamily[] = [];
  private cachedUrl: string | undefined;
  private cachedHash: bigint | undefined;

  constructor(
    readonly labels: Labels,
    readonly discoveredLabels: Labels,
    private readonly params: Readonly<Record<string, readonly string[]>>,
  ) {}

  /** The scrape URL, built as Prometheus' `Target.URL()` (params from config, overridden by `__param_*`). */
  url(): string {
    if (this.cachedUrl !== undefined) return this.cachedUrl;
    const params = new Map<string, string[]>(Object.entries(this.params).map(([k, v]) => [k, [...v]]));
    this.labels.forEach((name, value) => {
      if (!name.startsWith('__param_')) return;
      const key = name.slice('__param_'.length);
      const list = params.get(key);
      if (list !== undefined && list.length > 0) list[0] = value;
      else params.set(key, [value]);
    });
    const query = [...params.keys()]
      .sort()
      .flatMap((k) => (params.get(k) ?? []).map((v) => `${escapeQuery(k)}=${escapeQuery(v)}`))
      .join('&');
    let p = this.labels.get('__metrics_path__');
    const host = this.labels.get('__address__');
    if (p !== '' && !p.startsWith('/') && host !== '') p = '/' + p;
    this.cachedUrl = `${this.labels.get('__scheme__')}://${host}${escapePath(p)}${query === '' ? '' : `?${query}`}`;
    return this.cachedUrl;
  }

  /** The labels every sample of the target gets: the final labels without the `__` ones. */
  publicLabels(): Labels {
    const flat: string[] = [];
    this.labels.forEach((n, v) => {
      if (!n.startsWith('__')) flat.push(n, v);
    });
    return Labels.fromPairs(flat);
  }

  /** The target's scrape interval (from `__scrape_interval__`, validated by `populateLabels`). */
  get intervalMs(): DurationMs {
    return parsePromDuration(this.labels.get('__scrape_interval__'));
  }

  /** The target's scrape timeout (from `__scrape_timeout__`). */
  get timeoutMs(): DurationMs {
    return parsePromDuration(this.labels.get('__scrape_timeout__'));
  }

  /** Identifies the target within its pool: labels and URL (Prometheus' `Target.hash`). */
  hash(): bigint {
    return (this.cachedHash ??= fnv64a(`${this.labels.key()}\u0000${this.url()}`));
  }

  /**
   * How long from `nowMs` until the target's first scrape: a fixed phase within the interval,
   * from the target's hash and the server's jitter seed, pinned to absolute time so that every
   * restart scrapes a target at the same phase (Prometheus' `Target.offset`).
   */
  offsetMs(intervalMs: DurationMs, jitterSeed: bigint, nowMs: UnixMs): DurationMs {
    const base = intervalMs - (nowMs % intervalMs);
    const offset = Number((this.hash() ^ jitterSeed) % BigInt(intervalMs));
    const next = base + offset;
    return next > intervalMs ? next - intervalMs : next;
  }
}

/** What `populateLabels` made of one discovered label set. */
export interface PopulatedTarget {
  /** The final labels; null when relabeling dropped the target or it is invalid. */
  readonly labels: Labels | null;
  /** The labels before relabeling (defaults added); empty when the target is invalid. */
  readonly discovered: Labels;
  /** Why the target is invalid. */
  readonly error?: string;
}

/**
 * Prometheus' `PopulateLabels`: adds the job's defaults (`job`, `__scheme__`, `__metrics_path__`,
 * `__scrape_interval__`, `__scrape_timeout__`, `__param_*`) where service discovery set none,
 * applies `relabel_configs`, adds the scheme's default port to a bare host, checks interval and
 * timeout, deletes `__meta_*` and defaults `instance` to the address.
 */
export function populateLabels(lset: Labels, cfg: ScrapeConfig): PopulatedTarget {
  const lb = new LabelsBuilder(lset);
  const defaults: [string, string][] = [
    ['job', cfg.jobName],
    ['__scrape_interval__', formatPromDuration(cfg.scrapeIntervalMs)],
    ['__scrape_timeout__', formatPromDuration(cfg.scrapeTimeoutMs)],
    ['__metrics_path__', cfg.metricsPath],
    ['__scheme__', cfg.scheme],
  ];
  for (const [name, value] of defaults) if (lset.get(name) === '') lb.set(name, value);
  for (const [k, v] of Object.entries(cfg.params)) if (v.length > 0) lb.set(`__param_${k}`, v[0]);
  const discovered = lb.labels();
  if (!relabelBuilder(lb, cfg.relabelConfigs)) return { labels: null, discovered };
  const invalid = (error: string): PopulatedTarget => ({ labels: null, discovered: Labels.EMPTY, error });
  let addr = lb.get('__address__');
  if (addr === '') return invalid('no address');
  if (!splitsHostPort(addr) && splitsHostPort(addr + ':1234')) {
    const scheme = lb.get('__scheme__');
    if (scheme === 'http' || scheme === '') addr += ':80';
    else if (scheme === 'https') addr += ':443';
    else return invalid(`invalid scheme: ${JSON.stringify(cfg.scheme)}`);
    lb.set('__address__', addr);
  }
  const badAddress = checkTargetAddress(addr);
  if (badAddress !== undefined) return invalid(badAddress);
  const interval = lb.get('__scrape_interval__');
  const timeout = lb.get('__scrape_timeout__');
  let intervalMs: number;
  let timeoutMs: number;
  try {
    intervalMs = parsePromDuration(interval);
  } catch (e) {
    return invalid(`error parsing scrape interval: ${(e as Error).message}`);
  }
  if (intervalMs === 0) return invalid('scrape interval cannot be 0');
  try {
    timeoutMs = parsePromDuration(timeout);
  } catch (e) {
    return invalid(`error parsing scrape timeout: ${(e as Error).message}`);
  }
  if (timeoutMs === 0) return invalid('scrape timeout cannot be 0');
  if (timeoutMs > intervalMs) return invalid(`scrape timeout cannot be greater than scrape interval (${JSON.stringify(timeout)} > ${JSON.stringify(interval)})`);
  for (const [name] of lb.entries()) if (name.startsWith('__meta_')) lb.del(name);
  if (lb.get('instance') === '') lb.set('instance', addr);
  return { labels: lb.labels(), discovered };
}

/** The targets of one group: target labels win over group labels (Prometheus' `TargetsFromGroup`). */
export function targetsFromGroup(group: TargetGroup, cfg: ScrapeConfig): { targets: Target[]; dropped: Target[]; errors: string[] } {
  const targets: Target[] = [];
  const dropped: Target[] = [];
  const errors: string[] = [];
  group.targets.forEach((t, i) => {
    const flat = [...group.labels.flat(), ...t.flat()];
    const r = populateLabels(Labels.fromPairs(flat), cfg);
    if (r.error !== undefined) errors.push(`instance ${i} in group ${group.source}: ${r.error}`);
    else if (r.labels !== null) targets.push(new Target(r.labels, r.discovered, cfg.params));
    else dropped.push(new Target(Labels.EMPTY, r.discovered, cfg.params));
  });
  return { targets, dropped, errors };
}
