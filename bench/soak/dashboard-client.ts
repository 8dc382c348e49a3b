/**
 * The soak's second client, a child process of its own (so that parsing large answers never
 * delays the remote write sender): every `intervalMs` it runs each query of the Insights dashboard
 * (every panel's and every annotation's, filled in with the dashboard's default values) against
 * the server at `process.argv[2]`, one after the other, as the UI would for a 15 minute range:
 * instant queries for stats, tables and the hex grid, range queries at a 15 s step otherwise. A
 * round that outlasts the interval is followed by the next at once. On the message `stop` it
 * finishes the query in flight and sends back a `DashboardReport`, then exits.
 */
import { INSIGHTS, builtinIntervals, dashboardPanels, defaultValues, interpolate, panelQueries, type PanelQuery } from '../../src/dashboards/index.js';

/** What the client sends back when told to stop. */
export interface DashboardReport {
  readonly rounds: number;
  readonly queriesRun: number;
  /** Round trip of each query, answer read and parsed, in order. */
  readonly latenciesMs: readonly number[];
  readonly failed: number;
  /** The first few failures: status and the answer's start. */
  readonly failures: readonly string[];
}

const RANGE_MS = 15 * 60_000;
const STEP_MS = 15_000;

/** Every query of the Insights dashboard, with the default variable values filled in. */
export function insightsQueries(): { expr: string; instant: boolean }[] {
  const opts = { variables: INSIGHTS.variables, ...builtinIntervals({ rangeMs: RANGE_MS, stepMs: STEP_MS }) };
  const values = defaultValues(INSIGHTS);
  const all: PanelQuery[] = [...dashboardPanels(INSIGHTS).flatMap((p) => panelQueries(p)), ...INSIGHTS.annotations.map((a) => ({ refId: a.id, expr: a.expr }))];
  return all.map((q) => ({ expr: interpolate(q.expr, values, opts), instant: q.instant === true }));
}

async function main(base: string, intervalMs: number): Promise<void> {
  const queries = insightsQueries();
  const latenciesMs: number[] = [];
  const failures: string[] = [];
  let failed = 0;
  let rounds = 0;
  let stopping = false;
  let wake: (() => void) | undefined;
  process.on('message', (m) => {
    if (m === 'stop') {
      stopping = true;
      wake?.();
    }
  });
  while (!stopping) {
    const roundStart = performance.now();
    rounds++;
    for (const q of queries) {
      if (stopping) break;
      const endS = Date.now() / 1000;
      const params: Record<string, string> = q.instant ? { query: q.expr, time: String(endS) } : { query: q.expr, start: String(endS - RANGE_MS / 1000), end: String(endS), step: String(STEP_MS / 1000) };
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/v1/${q.instant ? 'query' : 'query_range'}`, { method: 'POST', body: new URLSearchParams(params) });
        const text = await res.text();
        JSON.parse(text);
        latenciesMs.push(performance.now() - t0);
        if (!res.ok) {
          failed++;
          if (failures.length < 5) failures.push(`${res.status}: ${text.slice(0, 200)}`);
        }
      } catch (e) {
        failed++;
        if (failures.length < 5) failures.push(String(e));
      }
    }
    const wait = intervalMs - (performance.now() - roundStart);
    if (wait > 0 && !stopping) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, wait)));
  }
  const report: DashboardReport = { rounds, queriesRun: latenciesMs.length, latenciesMs, failed, failures };
  process.send?.(report, () => process.exit(0));
}

if (process.send !== undefined) await main(process.argv[2], Number(process.argv[3] ?? 15_000));
