/**
 * The scrape manager's wiring: loading `--config.file`, starting the scrape pools once the store
 * is open, reloading (SIGHUP, and `POST /-/reload` through web-security.ts), and the routes
 * `/api/v1/targets` and `/api/v1/targets/metadata` in Prometheus' shapes.
 */
import os from 'node:os';
import type { Clock, Logger } from '../model/index.js';
import { parseMetricSelector } from '../promql/index.js';
import type { Appendable } from '../storage/index.js';
import { ScrapeManager, loadScrapeConfigFile, type ScrapeConfigFile, type ScrapeManagerOptions } from '../ingest/index.js';
import { targetsMetadata, targetsView } from './targets-view.js';
import { respond, respondError } from './api/respond.js';
import type { Handler, Routes } from './http.js';

/** Options of `wireScraping`. */
export interface ScrapeWiringOptions {
  /** The Prometheus-syntax configuration file; without one nothing is scraped. */
  readonly configFile?: string;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The port the server listens on, once known (for `globalUrl`). */
  readonly listenPort: () => number;
  /** Test seams of the scrape manager (fetch, timers); production leaves them out. */
  readonly manager?: Partial<Omit<ScrapeManagerOptions, 'appendable' | 'logger' | 'clock'>>;
}

/** The scraping part of a running server. */
export interface ScrapeWiring {
  /** Starts scraping into `appendable` with the loaded configuration. */
  start(appendable: Appendable): Promise<void>;
  /** Re-reads the configuration file; rejects (keeping the old configuration) when it is invalid. */
  reload(): Promise<void>;
  /** Stops scraping without staleness markers. */
  close(): Promise<void>;
}

/**
 * Loads the configuration (throwing `ConfigError` when it is invalid, so that the server does
 * not start on a broken file, as Prometheus) and registers the routes.
 */
export async function wireScraping(routes: Routes, o: ScrapeWiringOptions): Promise<ScrapeWiring> {
  const load = async (): Promise<ScrapeConfigFile | undefined> => {
    if (o.configFile === undefined) return undefined;
    const cfg = await loadScrapeConfigFile(o.configFile);
    if (cfg.ignoredSections.length > 0) o.logger.warn('configuration sections ignored by the scraper', { sections: cfg.ignoredSections.join(',') });
    return cfg;
  };
  let config = await load();
  let manager: ScrapeManager | undefined;
  let closed = false;
  const hostname = o.manager?.hostname ?? os.hostname();

  const targets: Handler = async (req, res, url) => {
    const data = manager === undefined ? { activeTargets: [], droppedTargets: [] } : targetsView(manager, url.searchParams.get('state') ?? '', { listenPort: o.listenPort(), scheme: 'http', host: `${hostname}:${o.listenPort()}` });
    await respond(req, res, { data });
  };
  const metadata: Handler = async (req, res, url) => {
    const q = url.searchParams;
    const limitText = q.get('limit') ?? '';
    const limit = limitText === '' ? -1 : Number(limitText);
    if (!Number.isInteger(limit)) return respondError(req, res, 'bad_data', 'limit must be a number');
    let matchers: ReturnType<typeof parseMetricSelector> = [];
    const matchTarget = q.get('match_target') ?? '';
    try {
      if (matchTarget !== '') matchers = parseMetricSelector(matchTarget);
    } catch (e) {
      return respondError(req, res, 'bad_data', (e as Error).message);
    }
    const data = manager === undefined ? [] : targetsMetadata(manager, (l) => matchers.every((m) => m.matches(l.get(m.name))), q.get('metric') ?? '', limit);
    await respond(req, res, { data });
  };
  const reload = async (): Promise<void> => {
    const next = await load().catch((e: unknown) => {
      // Prometheus' wording (cmd/prometheus reloadConfig).
      throw new Error(`couldn't load configuration (--config.file=${JSON.stringify(o.configFile)}): ${(e as Error).message}`);
    });
    config = next;
    if (manager !== undefined && next !== undefined) await manager.applyConfig(next);
    o.logger.info('completed loading of configuration file', { filename: o.configFile ?? '' });
  };
  routes.set('GET /api/v1/targets', targets);
  routes.set('GET /api/v1/targets/metadata', metadata);

  return {
    start: async (appendable) => {
      if (closed) return;
      manager = new ScrapeManager({ ...o.manager, appendable, logger: o.logger, clock: o.clock, hostname });
      if (config !== undefined) await manager.applyConfig(config);
    },
    reload,
    close: async () => {
      closed = true;
      await manager?.stop();
    },
  };
}
