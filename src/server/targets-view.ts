/**
 * The data of `/api/v1/targets` and `/api/v1/targets/metadata`, read from the scrape manager in
 * the API's wire shapes (`src/query`, which the UI reads them with).
 */
import type { Labels, UnixMs } from '../model/index.js';
import type { TargetDiscovery, TargetMetadata } from '../query/index.js';
import type { ScrapeManager, Target } from '../ingest/index.js';

/** How the server is reached from outside, for `globalUrl` (Prometheus' `GlobalURLOptions`). */
export interface GlobalUrlOptions {
  /** The port the server listens on. */
  readonly listenPort: number;
  /** The external URL's scheme and `host:port` (Prometheus: `http://<hostname>:<port>`). */
  readonly scheme: string;
  readonly host: string;
}

const LOCALHOST = ['127.0.0.1', 'localhost', '::1'];

/**
 * Prometheus' `getGlobalURL`: a loopback target URL gets the external host name (and, when it is
 * the server's own port, the external scheme and host) so that links work from elsewhere.
 */
export function globalUrl(scrapeUrl: string, o: GlobalUrlOptions): string {
  const m = /^([a-z]+):\/\/(\[[^\]]*\]|[^/:?]*)(?::(\d*))?(.*)$/i.exec(scrapeUrl);
  if (m === null) return scrapeUrl;
  const [, scheme, rawHost, port = scheme === 'https' ? '443' : '80', rest] = m;
  const host = rawHost.replace(/^\[(.*)\]$/, '$1');
  if (!LOCALHOST.includes(host)) return scrapeUrl;
  if (Number(port) === o.listenPort) return `${o.scheme}://${o.host}${rest}`;
  const extHost = o.host.replace(/:\d+$/, '');
  return `${scheme}://${extHost}:${port}${rest}`;
}

/** Go's `time.Time` JSON (RFC 3339 with trimmed nanoseconds), in UTC; the zero time when undefined. */
export function formatGoTime(tMs: UnixMs | undefined): string {
  if (tMs === undefined) return '0001-01-01T00:00:00Z';
  return new Date(tMs).toISOString().replace(/\.?0*Z$/, 'Z');
}

const labelMap = (t: Target, which: 'discovered' | 'public'): Record<string, string> => {
  const out: Record<string, string> = {};
  (which === 'discovered' ? t.discoveredLabels : t.publicLabels()).forEach((n, v) => (out[n] = v));
  return out;
};

/**
 * The `data` of `/api/v1/targets?state=...` (`active`, `dropped`, `any` or '' for both; other
 * values show neither, as in Prometheus): pools in name order, keys of label maps sorted.
 */
export function targetsView(manager: ScrapeManager, state: string, urls: GlobalUrlOptions): TargetDiscovery {
  const s = state.toLowerCase();
  const showActive = s === '' || s === 'any' || s === 'active';
  const showDropped = s === '' || s === 'any' || s === 'dropped';
  const out: TargetDiscovery = { activeTargets: [], droppedTargets: [] };
  for (const [name, pool] of manager.pools()) {
    if (showActive) {
      for (const t of pool.activeTargets()) {
        out.activeTargets.push({
          discoveredLabels: labelMap(t, 'discovered'),
          labels: labelMap(t, 'public'),
          scrapePool: name,
          scrapeUrl: t.url(),
          globalUrl: globalUrl(t.url(), urls),
          lastError: t.lastError,
          lastScrape: formatGoTime(t.lastScrapeMs),
          lastScrapeDuration: t.lastScrapeDurationMs / 1000,
          health: t.health,
          scrapeInterval: t.labels.get('__scrape_interval__'),
          scrapeTimeout: t.labels.get('__scrape_timeout__'),
        });
      }
    }
    if (showDropped) for (const t of pool.droppedTargets()) out.droppedTargets.push({ discoveredLabels: labelMap(t, 'discovered') });
  }
  return out;
}

/**
 * The `data` of `/api/v1/targets/metadata` (Prometheus' `targetMetadata`): for every active target
 * whose public labels pass `matchTarget`, the metadata of `metric` (or of all metrics when ''),
 * stopping once `limit` entries are collected (negative: no limit). 0.0.4's `untyped` is `unknown`.
 */
export function targetsMetadata(manager: ScrapeManager, matchTarget: (labels: Labels) => boolean, metric: string, limit: number): TargetMetadata[] {
  const out: TargetMetadata[] = [];
  for (const [, pool] of manager.pools()) {
    for (const t of pool.activeTargets()) {
      if (limit >= 0 && out.length >= limit) return out;
      if (!matchTarget(t.publicLabels())) continue;
      const target = labelMap(t, 'public');
      for (const f of t.metadata) {
        if (metric !== '' && f.name !== metric) continue;
        const entry: TargetMetadata = { target, type: f.type === 'untyped' ? 'unknown' : f.type, help: f.help ?? '', unit: f.unit ?? '' };
        out.push(metric === '' ? { target, metric: f.name, type: entry.type, help: entry.help, unit: entry.unit } : entry);
      }
    }
  }
  return out;
}
