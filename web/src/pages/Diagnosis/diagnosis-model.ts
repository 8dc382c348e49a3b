/**
 * What the Diagnosis page and the Insights banner compute from the API's answers, apart from
 * rendering: which insight to show, the time window its charts share, the chart definitions of the
 * symptom and of each cause's evidence (src/dashboards' panel type, so the existing chart renders
 * them), and the selector of a scope.
 */
import type { Panel as PanelDef, Unit } from '../../../../src/dashboards/types.js';
import type { CauseWire, InsightWire } from '../../../../src/query/index.js';

/** How each symptom is titled and in which unit its query answers. */
export const SYMPTOMS: Readonly<Record<string, { readonly title: string; readonly unit: Unit }>> = {
  ttft: { title: 'Time to first token (P99)', unit: 'seconds' },
  itl: { title: 'Inter-token latency (P99)', unit: 'seconds' },
  e2e: { title: 'End-to-end latency (P99)', unit: 'seconds' },
  tps: { title: 'Output throughput', unit: 'tokens/s' },
  errors: { title: 'Error share (5xx and 429)', unit: 'ratio' },
};

/** A symptom's title (its id when unknown). */
export const symptomTitle = (symptom: string): string => SYMPTOMS[symptom]?.title ?? symptom;

/** The insight of `id`, or the newest when `id` is '' or unknown; undefined when there is none. */
export function pickInsight(insights: readonly InsightWire[], id: string): InsightWire | undefined {
  return insights.find((i) => i.id === id) ?? [...insights].sort((a, b) => b.detected - a.detected || a.id.localeCompare(b.id))[0];
}

/** The insights the banner announces: those still open, newest first. */
export function openInsights(insights: readonly InsightWire[]): InsightWire[] {
  return insights.filter((i) => i.resolved === null).sort((a, b) => b.detected - a.detected || a.id.localeCompare(b.id));
}

/** The window every chart of an insight shares: from 30 minutes before its onset to 15 minutes after it resolved (or now while open). */
export function insightWindow(i: InsightWire, nowMs: number): { startMs: number; endMs: number } {
  const endMs = i.resolved === null ? nowMs : Math.min(nowMs, i.resolved * 1000 + 15 * 60_000);
  return { startMs: i.onset * 1000 - 30 * 60_000, endMs: Math.max(endMs, i.detected * 1000 + 60_000) };
}

/** `{k="v", …}` of a scope, or '' when fleet-wide. */
export function scopeSelector(scope: Readonly<Record<string, string>>): string {
  const parts = Object.entries(scope).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return parts.length === 0 ? '' : `{${parts.join(', ')}}`;
}

/** `k=v` chips' text of a scope, `fleet` when it is empty. */
export function scopeText(scope: Readonly<Record<string, string>>): string {
  return Object.entries(scope).map(([k, v]) => `${k}=${v}`).join(' ') || 'fleet';
}

/** The symptom's chart; undefined when the insight carries no query. */
export function symptomPanel(i: InsightWire): PanelDef | undefined {
  if (i.query === undefined) return undefined;
  const s = SYMPTOMS[i.symptom];
  return { id: `symptom-${i.id}`, title: s?.title ?? i.symptom, description: i.query, viz: 'timeseries', unit: s?.unit ?? 'none', queries: [{ refId: 'symptom', expr: i.query, legend: '{{component}}' }], width: 24, height: 6 };
}

/** One chart per cause: its evidence queries over the shared window (units differ between causes, so none is assumed). */
export function evidencePanel(c: CauseWire, rank: number): PanelDef | undefined {
  if (c.evidence.length === 0) return undefined;
  return {
    id: `evidence-${rank}-${c.cause}`,
    title: `Evidence: ${c.cause}`,
    description: c.evidence.map((e) => e.query).join('\n'),
    viz: 'timeseries',
    unit: 'none',
    queries: c.evidence.map((e, n) => ({ refId: `e${n}`, expr: e.query })),
    width: 24,
    height: 5,
  };
}

/** Confidence as a whole percentage. */
export const confidenceText = (c: number): string => `${Math.round(c * 100)} %`;
