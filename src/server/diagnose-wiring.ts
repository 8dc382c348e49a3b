/**
 * Diagnosis in a running server: the `Diagnoser` over the server's query client, which
 * `/api/v1/diagnosis` calls, and the online insight runner (src/diagnose/online) ticking at about
 * the scrape interval, whose insights `/api/v1/insights` lists and whose `llm_diagnosis_*` series
 * are appended to the store (the runner declares the sink; this binds it to the `Appendable`). Over
 * the demo's history the runner replays in virtual time before it goes live, as the rules do
 * (`ServerBackfill.rulesFromMs`).
 */
import { InsightRunner, createDiagnoser, type Diagnoser } from '../diagnose/index.js';
import { systemTimers, type Clock, type DurationMs, type Logger, type Timers, type UnixMs } from '../model/index.js';
import type { QueryClient } from '../query/index.js';
import type { Appendable } from '../storage/index.js';
import type { DiagnosisSource } from './api/index.js';
import { appendableSink } from './series-sink.js';

/** Options of `wireDiagnosis` (`ServeOptions.diagnose`). */
export interface DiagnoseWiringOptions {
  /**
   * Builds the diagnoser over the server's query client (default: src/diagnose's
   * `createDiagnoser`); null turns diagnosis off: the routes answer `unavailable` and no insight opens.
   */
  readonly createDiagnoser?: ((client: QueryClient) => Diagnoser) | null;
  /** The runner's tick (default 15 s, Prometheus' usual scrape interval; the demo passes its own). */
  readonly intervalMs?: DurationMs;
  /** `false`: diagnosis on demand only, no online runner. */
  readonly online?: boolean;
  /** Live ticks' timers (tests pass virtual ones). */
  readonly timers?: Timers;
}

/** The diagnosis part of a running server. */
export interface DiagnoseWiring {
  /** What the API routes read; null until the store is open. */
  source(): DiagnosisSource | null;
  /** Replays the runner over `[fromMs, toMs]` (the backfilled span); resolves with the ticks evaluated. */
  replay(appendable: Appendable, client: QueryClient, fromMs: UnixMs, toMs: UnixMs, signal?: AbortSignal): Promise<number>;
  /** Starts live ticks. */
  start(appendable: Appendable, client: QueryClient): void;
  close(): Promise<void>;
}

/** Wires diagnosis over the server's query client (null until the store is open); nothing ticks before `start` or `replay`. */
export function wireDiagnosis(o: DiagnoseWiringOptions, client: () => QueryClient | null, clock: Clock, logger: Logger): DiagnoseWiring {
  let diagnoser: Diagnoser | null = null;
  let runner: InsightRunner | null = null;
  const build = o.createDiagnoser === undefined ? (c: QueryClient) => createDiagnoser(c) : o.createDiagnoser;
  const diagnoserOver = (c: QueryClient): Diagnoser | null => (build === null ? null : (diagnoser ??= build(c)));
  const runnerOver = (appendable: Appendable, c: QueryClient): InsightRunner | null => {
    const d = diagnoserOver(c);
    if (d === null || o.online === false) return null;
    runner ??= new InsightRunner({ client: c, diagnoser: d, sink: appendableSink(appendable), clock, timers: o.timers ?? systemTimers, logger, intervalMs: o.intervalMs });
    return runner;
  };
  return {
    source: () => {
      const c = client();
      const d = c === null ? null : diagnoserOver(c);
      const insights = (startMs: UnixMs, endMs: UnixMs) => {
        const r = runner;
        return r === null ? [] : r.insights(startMs, endMs).map((i) => ({ ...i, query: r.symptomQuery(i.symptom, i.scope) }));
      };
      return d === null ? null : { diagnose: d, insights };
    },
    replay: (appendable, c, fromMs, toMs, signal) => runnerOver(appendable, c)?.replay(fromMs, toMs, signal) ?? Promise.resolve(0),
    start: (appendable, c) => runnerOver(appendable, c)?.start(),
    close: async () => {
      await runner?.stop();
    },
  };
}
