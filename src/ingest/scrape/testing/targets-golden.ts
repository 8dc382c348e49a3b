/**
 * The `/api/v1/targets` golden of Prometheus 2.42 (testdata/targets-api-prometheus-2.42.json):
 * the configuration it was captured with and the normalisation of what is volatile (ports, host
 * name, times, Go's vs Node's error texts). Used by the unit test of `targetsView` (src/server), by the e2e
 * test of the CLI and by the capture (test/e2e/scrape-targets-capture.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the golden lives. */
export const TARGETS_GOLDEN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../testdata/targets-api-prometheus-2.42.json');

/** The golden as stored. */
export function readTargetsGolden(): string {
  return fs.readFileSync(TARGETS_GOLDEN, 'utf8');
}

/** The configuration both servers load: one healthy target, one refusing connections, one dropped. */
export function goldenConfig(targetPort: number, downPort: number): string {
  return `global:
  scrape_interval: 1s
  scrape_timeout: 500ms
scrape_configs:
  - job_name: tiny
    params:
      format: [prometheus]
    static_configs:
      - targets: ['127.0.0.1:${targetPort}']
        labels: {az: z1, model: m1}
      - targets: ['drop.invalid:1']
    relabel_configs:
      - source_labels: [__address__]
        regex: 'drop\\..*'
        action: drop
  - job_name: down
    scrape_timeout: 250ms
    metrics_path: /custom
    static_configs:
      - targets: ['127.0.0.1:${downPort}']
`;
}

interface TargetsBody {
  status: string;
  data: { activeTargets: Record<string, unknown>[]; droppedTargets: Record<string, unknown>[] };
}

/**
 * Reduces a `/api/v1/targets` answer to what both servers must agree on: ports and the host name
 * become placeholders, `lastScrape` and `lastScrapeDuration` are checked for shape and blanked, a
 * non-empty `lastError` becomes `<error>` (Go and Node word connection errors differently), and
 * lists are sorted (Prometheus lists a pool's targets in map order).
 */
export function normalizeTargets(body: unknown, ports: Record<string, number>, hostname: string): unknown {
  let text = JSON.stringify(body);
  for (const [name, port] of Object.entries(ports)) text = text.split(`:${port}`).join(`:<${name}>`);
  text = text.split(`//${hostname}:`).join('//<HOSTNAME>:');
  const b = JSON.parse(text) as TargetsBody;
  for (const t of b.data.activeTargets) {
    if (typeof t.lastScrape !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(t.lastScrape)) throw new Error(`lastScrape is not RFC 3339: ${String(t.lastScrape)}`);
    if (typeof t.lastScrapeDuration !== 'number') throw new Error('lastScrapeDuration is not a number');
    t.lastScrape = '<RFC3339>';
    t.lastScrapeDuration = '<seconds>';
    if (t.lastError !== '') t.lastError = '<error>';
  }
  const key = (x: unknown) => JSON.stringify(x);
  b.data.activeTargets.sort((x, y) => (key([x.scrapePool, x.scrapeUrl]) < key([y.scrapePool, y.scrapeUrl]) ? -1 : 1));
  b.data.droppedTargets.sort((x, y) => (key(x) < key(y) ? -1 : 1));
  return b;
}

/** True once every active target has been scraped at least once. */
export function allScraped(body: unknown): boolean {
  const b = body as TargetsBody;
  return b.data.activeTargets.length > 0 && b.data.activeTargets.every((t) => t.health !== 'unknown');
}
