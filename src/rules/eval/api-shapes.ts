/**
 * Prometheus 2.42's JSON for `/api/v1/rules` and `/api/v1/alerts` (web/api/v1/api.go), built from
 * a `RulesSnapshot`: seconds as floats, times as Go's RFC 3339 with trimmed nanoseconds, the zero
 * time for "never", `lastError` and a recording rule's empty `labels` left out.
 */
import type { UnixMs } from '../../model/index.js';
import { groupOffsetNs } from './schedule.js';
import type { AlertSnapshot, RulesSnapshot } from './snapshot.js';

/**
 * Go's `time.Time` JSON for a UTC time in ms plus `subMsNs` nanoseconds (`2024-01-02T03:04:05.5Z`,
 * `…05.800206862Z`); undefined gives the zero time.
 */
export function formatGoTime(tMs: UnixMs | undefined, subMsNs = 0): string {
  if (tMs === undefined) return '0001-01-01T00:00:00Z';
  const iso = new Date(tMs).toISOString(); // 2024-01-02T03:04:05.500Z
  return iso.replace(/\.(\d{3})Z$/, (_m, frac: string) => {
    const f = `${frac}${String(subMsNs).padStart(6, '0')}`.replace(/0+$/, '');
    return f === '' ? 'Z' : `.${f}Z`;
  });
}

/**
 * The nanoseconds below the millisecond of `tMs` when it is one of the group's live ticks:
 * Prometheus evaluates at `k × interval + offset` to the nanosecond and keeps that instant as an
 * alert's `activeAt` and `keepFiringSince`, while samples (and so our times) are in ms.
 */
function tickSubMsNs(g: RulesSnapshot['groups'][number], tMs: UnixMs | undefined): number {
  if (tMs === undefined || g.intervalMs <= 0) return 0;
  const offset = groupOffsetNs(g.file, g.name, g.intervalMs);
  const intervalNs = BigInt(g.intervalMs) * 1_000_000n;
  const sub = offset % 1_000_000n;
  // On the grid: tMs × 1e6 + sub − offset is a multiple of the interval.
  return (BigInt(tMs) * 1_000_000n + sub - offset) % intervalNs === 0n ? Number(sub) : 0;
}

/** One alert in Prometheus' API shape. */
export interface ApiAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: string;
  activeAt?: string;
  keepFiringSince?: string;
  value: string;
}

function apiAlert(a: AlertSnapshot, g: RulesSnapshot['groups'][number]): ApiAlert {
  const out: ApiAlert = { labels: a.labels, annotations: a.annotations, state: a.state, activeAt: formatGoTime(a.activeAtMs, tickSubMsNs(g, a.activeAtMs)), value: a.value };
  if (a.keepFiringSinceMs !== undefined) out.keepFiringSince = formatGoTime(a.keepFiringSinceMs, tickSubMsNs(g, a.keepFiringSinceMs));
  return out;
}

/** Which rules `/api/v1/rules?type=` asks for. */
export type RulesApiType = 'alert' | 'record' | undefined;

/** The `data` of `/api/v1/rules` (`{groups: [...]}`). */
export function rulesApiData(s: RulesSnapshot, type?: RulesApiType): { groups: unknown[] } {
  const alerts = type === undefined || type === 'alert';
  const records = type === undefined || type === 'record';
  return {
    groups: s.groups.map((g) => ({
      name: g.name,
      file: g.file,
      rules: g.rules.flatMap((r) => {
        const tail = { health: r.health, ...(r.lastError !== undefined ? { lastError: r.lastError } : {}), evaluationTime: r.evaluationTimeMs / 1000, lastEvaluation: formatGoTime(r.lastEvaluationMs) };
        if (r.type === 'alerting') {
          if (!alerts) return [];
          return [
            {
              state: r.state,
              name: r.name,
              query: r.query,
              duration: r.durationMs / 1000,
              keepFiringFor: r.keepFiringForMs / 1000,
              labels: r.labels,
              annotations: r.annotations,
              alerts: r.alerts.map((a) => apiAlert(a, g)),
              ...tail,
              type: 'alerting',
            },
          ];
        }
        if (!records) return [];
        return [{ name: r.name, query: r.query, ...(Object.keys(r.labels).length > 0 ? { labels: r.labels } : {}), ...tail, type: 'recording' }];
      }),
      interval: g.intervalMs / 1000,
      limit: g.limit,
      evaluationTime: g.evaluationTimeMs / 1000,
      lastEvaluation: formatGoTime(g.lastEvaluationMs),
    })),
  };
}

/** The `data` of `/api/v1/alerts` (`{alerts: [...]}`): every active alert of every alerting rule. */
export function alertsApiData(s: RulesSnapshot): { alerts: ApiAlert[] } {
  return { alerts: s.groups.flatMap((g) => g.rules.flatMap((r) => (r.type === 'alerting' ? r.alerts.map((a) => apiAlert(a, g)) : []))) };
}
