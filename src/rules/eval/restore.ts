/**
 * Restoring pending `for` state after a restart (Prometheus 2.42's `Group.RestoreForState`), read
 * through the `QueryClient` instead of a storage querier: each active alert whose
 * `ALERTS_FOR_STATE` series has a sample within the outage tolerance gets its `activeAt` back,
 * shifted by the time the process was down, and never less than the grace period from now.
 */
import { Labels, METRIC_NAME_LABEL, type DurationMs, type Logger, type UnixMs } from '../../model/index.js';
import { parseSampleValue, unixSecondsToMs, type QueryClient } from '../../query/index.js';
import type { AlertingRule } from './alerting-rule.js';
import { errorMessage, raceAbort } from './rule.js';

/** How far back restoring looks and how it treats short remainders. */
export interface RestoreOptions {
  readonly query: QueryClient;
  readonly logger: Logger;
  /** `--rules.alert.for-outage-tolerance` (Prometheus: 1 h). */
  readonly outageToleranceMs: DurationMs;
  /** `--rules.alert.for-grace-period` (Prometheus: 10 m). */
  readonly forGracePeriodMs: DurationMs;
  /** The backend's lookback delta (5 m), used to tell a series that went stale from one that just stopped. */
  readonly lookbackDeltaMs?: DurationMs;
  /** Aborts the restore's queries (the group stopping). */
  readonly signal?: AbortSignal;
}

/** A PromQL duration for `ms` (`3600s`, `1500ms`). */
export function promDuration(ms: DurationMs): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** The selector of a rule's `ALERTS_FOR_STATE` series: its name, alertname and the rule labels that are not templates. */
export function forStateSelector(rule: AlertingRule): string {
  const m = [`alertname=${JSON.stringify(rule.name)}`];
  for (let i = 0; i < rule.labels.size; i++) {
    const v = rule.labels.valueAt(i);
    if (!v.includes('{{') && rule.labels.nameAt(i) !== 'alertname') m.push(`${rule.labels.nameAt(i)}=${JSON.stringify(v)}`);
  }
  return `ALERTS_FOR_STATE{${m.join(',')}}`;
}

/** Restores the `for` state of `rule`'s active alerts as of `tsMs` and marks the rule restored. */
export async function restoreForState(rule: AlertingRule, tsMs: UnixMs, o: RestoreOptions): Promise<void> {
  const holdMs = rule.spec.forMs;
  try {
    if (holdMs < o.forGracePeriodMs || rule.active.size === 0) return;
    const selector = forStateSelector(rule);
    const signal = o.signal ?? new AbortController().signal;
    const res = await raceAbort(o.query.instant(`${selector}[${promDuration(o.outageToleranceMs)}]`, tsMs, { signal }), signal);
    if (res.data.resultType !== 'matrix') return;
    const last = new Map<string, { tMs: UnixMs; value: number }>();
    for (const s of res.data.result) {
      const p = s.values[s.values.length - 1];
      if (p === undefined) continue;
      last.set(Labels.from(s.metric).without(METRIC_NAME_LABEL).key(), { tMs: unixSecondsToMs(p[0]), value: parseSampleValue(p[1]) });
    }
    const lookback = o.lookbackDeltaMs ?? 5 * 60_000;
    for (const a of rule.active.values()) {
      const found = last.get(a.labels.key());
      if (found === undefined) continue;
      // A range selector hides stale markers: ask whether the series was still there just
      // before its last sample fell out of the lookback window. If not, it went stale (the
      // alert resolved) and there is no `for` progress to restore.
      const probeMs = Math.min(tsMs, found.tMs + lookback - 1);
      const probe = await raceAbort(o.query.instant(selector, probeMs, { signal }), signal);
      const present = probe.data.resultType === 'vector' && probe.data.result.some((s) => Labels.from(s.metric).without(METRIC_NAME_LABEL).key() === a.labels.key());
      if (!present) continue;
      const downAtMs = Math.trunc(found.tMs / 1000) * 1000;
      let activeAtMs = Math.trunc(found.value) * 1000;
      const remainingMs = holdMs - (downAtMs - activeAtMs);
      if (remainingMs <= 0) {
        // It had waited its whole `for` already: it fires at once.
      } else if (remainingMs < o.forGracePeriodMs) {
        activeAtMs = tsMs + o.forGracePeriodMs - holdMs;
      } else {
        activeAtMs += tsMs - downAtMs;
      }
      a.activeAtMs = activeAtMs;
      o.logger.debug("'for' state restored", { alertname: rule.name, labels: a.labels.toString(), restoredMs: activeAtMs });
    }
  } catch (e) {
    o.logger.error("failed to restore 'for' state", { alertname: rule.name, err: errorMessage(e) });
  } finally {
    rule.restored = true;
  }
}
