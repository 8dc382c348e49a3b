/**
 * The sample store over SQL: one implementation for PGlite and PostgreSQL (their differences stay
 * in the `SqlConn` adapters). Every statement is parameterized; a batch is one transaction of one
 * `INSERT … SELECT FROM unnest(…)`, idempotent on the pair id (a repeated pair is kept as first
 * stored; a repeated evaluation, same pair and evaluator, replaces the earlier one).
 */
import type { UnixMs } from '../../model/index.js';
import type { Evaluation, SampleFilter, SampleRecord, SampleStore, SampleStoreStats, SampledPair } from '../types.js';
import { migrate } from './migrations.js';
import {
  EVALUATION_COLUMNS,
  EVALUATION_SELECT,
  EVALUATION_TYPES,
  PAIR_COLUMNS,
  PAIR_SELECT,
  PAIR_TYPES,
  evaluationColumns,
  evaluationOf,
  pairColumns,
  pairOf,
  type EvaluationRow,
  type PairRow,
} from './rows.js';
import type { SqlConn } from './sql.js';

/** How many records `find` returns when the filter names no limit, and the most it ever returns. */
export const DEFAULT_FIND_LIMIT = 100;
export const MAX_FIND_LIMIT = 1000;

/** Retention by size deletes down to this share of `maxBytes`, so that it does not run on every call. */
const SIZE_TARGET = 0.9;

/** A write the database refused (full disk, lost connection, a constraint): nothing of the batch is stored. */
export class SampleStoreWriteError extends Error {
  /** `message` says what was being written and the database's reason. */
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'SampleStoreWriteError';
  }
}

const unnest = (types: readonly string[]): string => `unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;

const INSERT_PAIRS = `INSERT INTO quality_pairs (${PAIR_COLUMNS}) SELECT * FROM ${unnest(PAIR_TYPES)} ON CONFLICT (id) DO NOTHING`;
const UPDATED = EVALUATION_COLUMNS.split(', ').filter((c) => c !== 'pair_id' && c !== 'evaluator').map((c) => `${c} = EXCLUDED.${c}`).join(', ');
// The join with the pairs is the foreign key's check, once per batch instead of a trigger per row:
// an evaluation of a pair not stored is not inserted (the count tells, and the batch is refused),
// and FOR KEY SHARE keeps retention from deleting the pairs until the batch commits.
const INSERT_EVALUATIONS = `WITH ins AS (
  INSERT INTO quality_evaluations (${EVALUATION_COLUMNS})
  SELECT u.* FROM ${unnest(EVALUATION_TYPES)} AS u (${EVALUATION_COLUMNS}) JOIN quality_pairs p ON p.id = u.pair_id FOR KEY SHARE OF p
  ON CONFLICT (pair_id, evaluator) DO UPDATE SET ${UPDATED}
  RETURNING 1)
SELECT count(*)::float8 AS n FROM ins`;

/** The store over an open connection; `openSampleStore` builds it. */
export class SqlSampleStore implements SampleStore {
  readonly kind: string;

  /** Takes ownership of `conn` (closed by `close`). */
  constructor(private readonly conn: SqlConn) {
    this.kind = conn.kind;
  }

  /** Applies the migrations the database lacks (`migrations.ts`). */
  async migrate(): Promise<void> {
    await migrate(this.conn);
  }

  /** Stores `pairs` in one transaction; a pair whose id is stored already is left as it was. */
  async putPairs(pairs: readonly SampledPair[]): Promise<void> {
    if (pairs.length === 0) return;
    const cols = pairColumns(pairs);
    await this.write(`${pairs.length} pairs`, INSERT_PAIRS, cols);
  }

  /** Stores `evaluations` in one transaction; every one must name a stored pair, or none is stored. */
  async putEvaluations(evaluations: readonly Evaluation[]): Promise<void> {
    if (evaluations.length === 0) return;
    const cols = evaluationColumns(evaluations);
    await this.write(`${evaluations.length} evaluations`, INSERT_EVALUATIONS, cols, cols[0].length);
  }

  /** Runs `sql` in a transaction; with `rows`, the statement must report that many rows written (`n`). */
  private async write(what: string, sql: string, params: unknown[], rows?: number): Promise<void> {
    try {
      await this.conn.transaction(async (tx) => {
        const got = await tx.query<{ n: number }>(sql, params);
        if (rows !== undefined && got[0]?.n !== rows) throw new Error(`${rows - (got[0]?.n ?? 0)} of them evaluate a pair that is not stored`);
      });
    } catch (e) {
      throw new SampleStoreWriteError(`quality sample store (${this.kind}): storing ${what} failed, nothing of the batch was stored: ${(e as Error).message}`, { cause: e });
    }
  }

  /** The newest pairs matching `filter`, with all their evaluations. */
  async find(filter: SampleFilter): Promise<SampleRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (v: unknown): string => {
      params.push(v);
      return `$${params.length}`;
    };
    if (filter.model !== undefined) where.push(`p.model = ${param(filter.model)}`);
    if (filter.component !== undefined) where.push(`p.component = ${param(filter.component)}`);
    if (filter.startMs !== undefined) where.push(`p.t_ms >= ${param(Math.ceil(filter.startMs))}`);
    if (filter.endMs !== undefined) where.push(`p.t_ms <= ${param(Math.floor(filter.endMs))}`);
    if (filter.dimension !== undefined || filter.minScore !== undefined || filter.maxScore !== undefined) {
      const on = ['e.pair_id = p.id', 'e.score IS NOT NULL'];
      on.push(filter.dimension !== undefined ? `e.dimension = ${param(filter.dimension)}` : 'e.dimension IS NOT NULL');
      if (filter.minScore !== undefined) on.push(`e.score >= ${param(filter.minScore)}`);
      if (filter.maxScore !== undefined) on.push(`e.score <= ${param(filter.maxScore)}`);
      where.push(`EXISTS (SELECT 1 FROM quality_evaluations e WHERE ${on.join(' AND ')})`);
    }
    if (filter.flag !== undefined) where.push(`EXISTS (SELECT 1 FROM quality_evaluations e WHERE e.pair_id = p.id AND e.flag = ${param(filter.flag)})`);
    const limit = Math.max(0, Math.min(MAX_FIND_LIMIT, Math.floor(filter.limit ?? DEFAULT_FIND_LIMIT)));
    if (limit === 0) return [];
    const sql = `SELECT ${PAIR_SELECT} FROM quality_pairs p ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY p.t_ms DESC, p.id DESC LIMIT ${param(limit)}`;
    return this.withEvaluations(await this.conn.query<PairRow>(sql, params));
  }

  /** The pair `id` with its evaluations, or null. */
  async get(id: string): Promise<SampleRecord | null> {
    const rows = await this.conn.query<PairRow>(`SELECT ${PAIR_SELECT} FROM quality_pairs p WHERE p.id = $1`, [id]);
    return (await this.withEvaluations(rows))[0] ?? null;
  }

  private async withEvaluations(rows: readonly PairRow[]): Promise<SampleRecord[]> {
    if (rows.length === 0) return [];
    const evs = await this.conn.query<EvaluationRow>(`SELECT ${EVALUATION_SELECT} FROM quality_evaluations e WHERE e.pair_id = ANY($1::text[]) ORDER BY e.pair_id, e.stage, e.evaluator`, [rows.map((r) => r.id)]);
    const byPair = new Map<string, Evaluation[]>();
    for (const r of evs) {
      let list = byPair.get(r.pair_id);
      if (list === undefined) byPair.set(r.pair_id, (list = []));
      list.push(evaluationOf(r));
    }
    return rows.map((r) => ({ pair: pairOf(r), evaluations: byPair.get(r.id) ?? [] }));
  }

  /** Counts, bytes (tables, indexes and TOAST, as `pg_total_relation_size` reports them) and the oldest pair's time. */
  async stats(): Promise<SampleStoreStats> {
    const [r] = await this.conn.query<{ pairs: number; evaluations: number; bytes: number; oldest: number | null }>(
      `SELECT (SELECT count(*) FROM quality_pairs)::float8 AS pairs,
              (SELECT count(*) FROM quality_evaluations)::float8 AS evaluations,
              (pg_total_relation_size('quality_pairs') + pg_total_relation_size('quality_evaluations'))::float8 AS bytes,
              (SELECT min(t_ms) FROM quality_pairs)::float8 AS oldest`,
    );
    return { pairs: r.pairs, evaluations: r.evaluations, bytes: r.bytes, oldestMs: r.oldest };
  }

  /**
   * Deletes the pairs older than `maxAgeMs` (and their evaluations), then, while the tables
   * take more than `maxBytes`, the oldest pairs down to 90% of it, and compacts the tables so
   * that the files shrink (docs/design/quality-store.md, "Retention"). Resolves with the number of
   * pairs deleted.
   */
  async enforceRetention(nowMs: UnixMs, limits: { readonly maxAgeMs: number; readonly maxBytes: number }): Promise<number> {
    let deleted = 0;
    if (Number.isFinite(limits.maxAgeMs)) {
      deleted += await this.deletePairs('DELETE FROM quality_pairs WHERE t_ms < $1 RETURNING id', [Math.floor(nowMs - limits.maxAgeMs)]);
    }
    if (!Number.isFinite(limits.maxBytes)) return deleted;
    // A few passes at most: the estimate weighs pairs by their texts, while indexes and pages
    // shrink less than in proportion.
    for (let pass = 0; pass < 4; pass++) {
      const before = await this.stats();
      if (before.bytes <= limits.maxBytes || before.pairs === 0) break;
      deleted += await this.deleteOldestShare((before.bytes - limits.maxBytes * SIZE_TARGET) / before.bytes);
    }
    return deleted;
  }

  /**
   * Deletes the oldest pairs whose texts make up `share` of all texts (at least one pair), then
   * rewrites the tables: a plain DELETE leaves the files as large as they were.
   */
  private async deleteOldestShare(share: number): Promise<number> {
    const n = await this.deletePairs(
      `WITH w AS (
         SELECT id, sum(octet_length(prompt) + octet_length(response) + 256) OVER (ORDER BY t_ms, id) AS upto,
                sum(octet_length(prompt) + octet_length(response) + 256) OVER () AS total
         FROM quality_pairs)
       DELETE FROM quality_pairs WHERE id IN (SELECT id FROM w WHERE upto <= total * $1::float8 OR upto = (SELECT min(upto) FROM w)) RETURNING id`,
      [share],
    );
    // One statement each: VACUUM refuses to run inside a (multi-statement, implicit) transaction.
    await this.conn.exec('VACUUM FULL quality_evaluations');
    await this.conn.exec('VACUUM FULL quality_pairs');
    return n;
  }

  /**
   * Runs `deleteSql` (a DELETE of pairs RETURNING id) and deletes those pairs' evaluations, in one
   * transaction. Two statements: the second one's snapshot sees evaluations that a writer holding
   * the pairs FOR KEY SHARE committed while the first waited.
   */
  private async deletePairs(deleteSql: string, params: readonly unknown[]): Promise<number> {
    return this.conn.transaction(async (tx) => {
      const ids = (await tx.query<{ id: string }>(deleteSql, params)).map((r) => r.id);
      if (ids.length > 0) await tx.query('DELETE FROM quality_evaluations WHERE pair_id = ANY($1::text[])', [ids]);
      return ids.length;
    });
  }

  /** Closes the connection (PGlite: flushes and closes the data directory). */
  close(): Promise<void> {
    return this.conn.close();
  }
}
