// The real read and write path for rule tests: an embedded Db, the PromQL engine behind an
// EngineQueryClient, series loaded in promtool's expanding notation (`1+1x10 _ stale`), and the
// engine's printer as `formatExpr`. Used by test/rules and the promtool differential test.
import { Labels, MemoryLogger, type UnixMs } from '../../src/model/index.js';
import { Engine, EngineQueryClient, exprToString, parseExpr } from '../../src/promql/index.js';
import { parseSeriesLine } from '../../src/promql/promqltest/index.js';
import type { QueryClient } from '../../src/query/index.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

/** A Db and a query client over it. */
export interface RulesDb {
  readonly db: Db;
  readonly client: QueryClient;
  close(): Promise<void>;
}

/** Opens an empty Db in a temp dir and an engine client over it (the engine's clock is `now`). */
export async function openRulesDb(now: () => UnixMs = () => 0): Promise<RulesDb> {
  const t = tempDir('rules');
  const db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: now });
  const client = new EngineQueryClient({ engine: new Engine({ now }), queryable: db });
  return {
    db,
    client,
    close: async () => {
      await db.close();
      t.remove();
    },
  };
}

/** One input series: `metric{labels}` and its values, as in promtool's `input_series`. */
export interface InputSeries {
  readonly series: string;
  readonly values: string;
}

/** Loads series as promtool's `load <interval>` does: the i-th value at `startMs + i × interval`. */
export async function loadSeries(db: Db, series: readonly InputSeries[], intervalMs: number, startMs: UnixMs = 0): Promise<void> {
  const app = db.appender();
  for (const s of series) {
    const line = parseSeriesLine(`${s.series} ${s.values}`);
    line.values.forEach((v, i) => {
      if (v.kind === 'float') app.append(0, line.metric, startMs + i * intervalMs, v.value);
    });
  }
  await app.commit();
}

/** Prometheus prints a rule's parsed expression: the engine's printer. */
export function formatExpr(expr: string): string {
  return exprToString(parseExpr(expr));
}

/** Label sets are compared as text. */
export function labelsText(metric: Record<string, string>): string {
  return Labels.from(metric).toString();
}
