/**
 * The Targets page's model: scrape targets grouped by pool, unhealthy first, narrowed by a filter
 * box whose words must each match the target's URL, pool, health, error or a label (`az=us-east-1a`
 * or a bare value). Pure.
 */
import type { ActiveTarget } from '../../api/api-client.js';
import { naturalCompare } from '../../panels/model/table-join.js';

/** One pool's targets. */
export interface TargetPool {
  readonly pool: string;
  readonly targets: readonly ActiveTarget[];
  readonly up: number;
  readonly down: number;
  readonly unknown: number;
  /** Targets in the pool before filtering. */
  readonly total: number;
}

const HEALTH_ORDER: Readonly<Record<string, number>> = { down: 0, unknown: 1, up: 2 };

/** Whether `t` matches every word of `filter` (case-insensitive). */
export function targetMatches(t: ActiveTarget, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const hay = [
    t.scrapeUrl,
    t.scrapePool,
    t.health,
    t.lastError,
    ...Object.entries(t.labels).flatMap(([k, v]) => [`${k}=${v}`, `${k}="${v}"`]),
  ]
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** Groups `targets` by pool (pools in natural order), filtered, down targets first within a pool. */
export function groupTargets(targets: readonly ActiveTarget[], filter: string): TargetPool[] {
  const pools = new Map<string, ActiveTarget[]>();
  for (const t of targets) {
    let list = pools.get(t.scrapePool);
    if (list === undefined) pools.set(t.scrapePool, (list = []));
    list.push(t);
  }
  const out: TargetPool[] = [];
  for (const pool of [...pools.keys()].sort(naturalCompare)) {
    const all = pools.get(pool)!;
    const shown = all
      .filter((t) => targetMatches(t, filter))
      .sort((a, b) => (HEALTH_ORDER[a.health] ?? 1) - (HEALTH_ORDER[b.health] ?? 1) || naturalCompare(a.scrapeUrl, b.scrapeUrl));
    if (shown.length === 0) continue;
    out.push({
      pool,
      targets: shown,
      up: shown.filter((t) => t.health === 'up').length,
      down: shown.filter((t) => t.health === 'down').length,
      unknown: shown.filter((t) => t.health !== 'up' && t.health !== 'down').length,
      total: all.length,
    });
  }
  return out;
}
