/**
 * The sample store's schema, as numbered migrations shared by PGlite and PostgreSQL. Each runs in
 * its own transaction with its row in `schema_migrations`, under an advisory lock, so that two
 * processes opening one shared database at once apply each step exactly once. A database whose
 * schema is newer than this code's last migration is refused: an older Infersight must not write
 * rows a newer one would misread. Never edit a released migration; add the next one
 * (docs/design/quality-store.md, "Migrations").
 */
import type { SqlConn } from './sql.js';

/** One schema step. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The schema, oldest first; versions count up from 1 without gaps. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'pairs and evaluations',
    sql: `
      CREATE TABLE quality_pairs (
        id text PRIMARY KEY,
        t_ms bigint NOT NULL,
        endpoint text NOT NULL,
        component text NOT NULL,
        model text NOT NULL,
        prompt text NOT NULL,
        response text NOT NULL,
        status integer NOT NULL,
        finish_reason text,
        prompt_tokens integer,
        completion_tokens integer,
        want_json boolean NOT NULL,
        ttft_s double precision,
        e2e_s double precision NOT NULL
      );
      CREATE INDEX quality_pairs_t ON quality_pairs (t_ms, id);
      CREATE TABLE quality_evaluations (
        -- No foreign key: its per-row trigger cost a third of a batch; putEvaluations joins the
        -- pairs instead (locking them FOR KEY SHARE) and retention deletes a pair's evaluations.
        pair_id text NOT NULL,
        evaluator text NOT NULL,
        stage smallint NOT NULL CHECK (stage IN (1, 2)),
        dimension text,
        score double precision CHECK (score >= 0 AND score <= 1),
        flag text,
        detail text NOT NULL,
        error text,
        duration_s double precision NOT NULL,
        judge_input_tokens integer,
        judge_output_tokens integer,
        t_ms bigint NOT NULL,
        PRIMARY KEY (pair_id, evaluator)
      );`,
  },
  {
    version: 2,
    name: 'indexes for the sample browser filters',
    sql: `
      CREATE INDEX quality_pairs_model_t ON quality_pairs (model, t_ms);
      CREATE INDEX quality_pairs_component_t ON quality_pairs (component, t_ms);
      CREATE INDEX quality_evaluations_dimension_score ON quality_evaluations (dimension, score, pair_id) WHERE dimension IS NOT NULL;
      CREATE INDEX quality_evaluations_flag ON quality_evaluations (flag, pair_id) WHERE flag IS NOT NULL;`,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** An arbitrary constant: the advisory lock key every migrating process takes. */
const MIGRATION_LOCK = 0x51a17e;

/** The database's schema is newer than this code knows, or the migration table is damaged. */
export class SampleStoreSchemaError extends Error {
  /** `message` says what was found and what to do. */
  constructor(message: string) {
    super(message);
    this.name = 'SampleStoreSchemaError';
  }
}

/**
 * Applies the `migrations` the database lacks, each in a transaction; resolves with the version
 * reached. Throws `SampleStoreSchemaError` for a schema newer than the last of `migrations`.
 * (`migrations` is a parameter so that tests can stop at version N−1.)
 */
export async function migrate(conn: SqlConn, migrations: readonly Migration[] = MIGRATIONS, nowMs = Date.now()): Promise<number> {
  const known = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  let reached = 0;
  // One pass more than there are steps: the last finds nothing to do and reports the version.
  for (let i = 0; i <= migrations.length; i++) {
    const done = await conn.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)');
      const [row] = await tx.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
      const current = row?.v ?? 0;
      if (current > known) {
        throw new SampleStoreSchemaError(
          `quality sample store: the database's schema is at version ${current}, newer than this Infersight knows (${known}); ` +
            'a newer Infersight wrote it: upgrade this one, or point it at another database',
        );
      }
      const next = migrations.find((m) => m.version > current);
      if (next === undefined) return current;
      if (next.version !== current + 1) throw new SampleStoreSchemaError(`quality sample store: the database's schema is at version ${current}, but the next migration known is ${next.version}`);
      await tx.exec(next.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)', [next.version, next.name, nowMs]);
      return null;
    });
    if (done !== null) {
      reached = done;
      break;
    }
  }
  return reached;
}
