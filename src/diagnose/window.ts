/**
 * The windows a diagnosis compares, and the reading of one signal over them. The incident window is
 * the last `incidentMs` before the diagnosis time. The baseline is the same hour yesterday where the
 * store holds it (a range around `t - 1 d`), otherwise the preceding hour: `[t - 70 m, t - 10 m]`,
 * leaving a gap so that a fault that grows over minutes is not its own baseline; when the store
 * holds less than that (a fleet started minutes ago) it is the first half of what the store holds.
 * Each signal is one range query; the statistics are taken here so that one query yields the
 * baseline, the incident value and the onset.
 */
import type { DurationMs, UnixMs } from '../model/index.js';
import { parseSampleValue, type QueryClient } from '../query/index.js';
import type { Reading } from './detector.js';

/** How the windows are laid out; every field has a default (`DEFAULT_WINDOWS`). */
export interface WindowOptions {
  /** The incident window: the last this many ms before the diagnosis time. */
  readonly incidentMs: DurationMs;
  /** The preceding-hour baseline's length. */
  readonly baselineMs: DurationMs;
  /** The gap between the baseline's end and the diagnosis time. */
  readonly gapMs: DurationMs;
  /** The range queries' step. */
  readonly stepMs: DurationMs;
}

/** The default windows: 1 min incident, the hour ending 10 min before, 30 s steps (two scrapes at 15 s). */
export const DEFAULT_WINDOWS: WindowOptions = { incidentMs: 60_000, baselineMs: 3_600_000, gapMs: 600_000, stepMs: 30_000 };

const DAY_MS = 86_400_000;
/** The least baseline points that make a baseline; fewer and the short-history fallback applies. */
const MIN_BASELINE_POINTS = 4;

/** Where the baseline of one diagnosis comes from. */
export interface BaselinePlan {
  /** `yesterday`: the same hour a day earlier; `preceding`: the hour before the incident. */
  readonly kind: 'yesterday' | 'preceding';
  readonly timeMs: UnixMs;
  readonly windows: WindowOptions;
}

/** Whether the store holds the same hour yesterday: any `up` series a day before `timeMs`. */
export async function planBaseline(client: QueryClient, timeMs: UnixMs, windows: WindowOptions, signal?: AbortSignal): Promise<BaselinePlan> {
  try {
    const r = await client.instant('count(up)', timeMs - DAY_MS, signal === undefined ? {} : { signal });
    const has = r.data.resultType === 'vector' && r.data.result.length > 0;
    return { kind: has ? 'yesterday' : 'preceding', timeMs, windows };
  } catch (e) {
    if (signal?.aborted === true) throw e;
    return { kind: 'preceding', timeMs, windows };
  }
}

type Points = (readonly [UnixMs, number])[];

async function rangePoints(client: QueryClient, query: string, startMs: UnixMs, endMs: UnixMs, stepMs: DurationMs, signal?: AbortSignal): Promise<Map<string, { labels: Record<string, string>; points: Points }>> {
  const r = await client.range(query, startMs, endMs, stepMs, signal === undefined ? {} : { signal });
  const out = new Map<string, { labels: Record<string, string>; points: Points }>();
  for (const s of r.data.result) {
    const points: Points = [];
    for (const [t, v] of s.values) {
      const x = parseSampleValue(v);
      if (Number.isFinite(x)) points.push([Math.round(t * 1000), x]);
    }
    const labels: Record<string, string> = { ...s.metric };
    delete labels.__name__;
    out.set(JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))), { labels, points });
  }
  return out;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Reads `query` over the plan's windows: one reading per series of the incident side. */
export async function readSignal(client: QueryClient, query: string, plan: BaselinePlan, signal?: AbortSignal): Promise<Reading[]> {
  const { timeMs: t, windows: w } = plan;
  const recent = await rangePoints(client, query, t - w.baselineMs - w.gapMs, t, w.stepMs, signal);
  const yesterday = plan.kind === 'yesterday' ? await rangePoints(client, query, t - DAY_MS - w.baselineMs / 2, t - DAY_MS + w.baselineMs / 2, w.stepMs, signal) : undefined;
  const incidentFrom = t - w.incidentMs;
  // Where the baseline ends, decided once for the whole query: a series that appeared minutes ago
  // (a new replica) has no baseline, rather than one taken from its own first minutes.
  const baseTo = t - w.gapMs;
  let sideFrom = baseTo;
  if (yesterday === undefined && ![...recent.values()].some((s) => s.points.filter(([ts]) => ts <= baseTo).length >= MIN_BASELINE_POINTS)) {
    // Short history (a fleet started minutes ago): the first half of what the store holds, so
    // that a change in its second half stays out of its own baseline.
    const firstMs = Math.min(t, ...[...recent.values()].map((s) => (s.points.length > 0 ? s.points[0][0] : t)));
    sideFrom = Math.min(incidentFrom - w.stepMs, firstMs + (t - firstMs) / 2);
  }
  const out: Reading[] = [];
  for (const [key, s] of recent) {
    const inc = s.points.filter(([ts]) => ts > incidentFrom).map(([, v]) => v);
    const base = yesterday !== undefined ? (yesterday.get(key)?.points ?? []).map(([, v]) => v) : s.points.filter(([ts]) => ts <= sideFrom).map(([, v]) => v);
    out.push({
      labels: s.labels,
      baseline: median(base),
      incident: mean(inc),
      incidentMax: inc.length === 0 ? null : Math.max(...inc),
      incidentMin: inc.length === 0 ? null : Math.min(...inc),
      last: s.points.length > 0 && s.points[s.points.length - 1][0] > incidentFrom ? s.points[s.points.length - 1][1] : null,
      points: s.points.filter(([ts]) => ts > sideFrom),
    });
  }
  return out;
}
