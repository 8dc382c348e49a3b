/**
 * The sample store's conformance suite: the same cases over every backend (PGlite in
 * src/quality/store/pglite.test.ts, Debian's PostgreSQL in
 * test/interop/quality-store-postgres.test.ts), so that the embedded database and the shared one
 * cannot drift apart. Each case starts from a database without the store's tables.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Evaluation, SampledPair, SampleStore } from '../../types.js';
import { MIGRATIONS, SCHEMA_VERSION, SampleStoreSchemaError, migrate } from '../migrations.js';
import { MAX_TEXT_CHARS, SampleStoreInputError } from '../rows.js';
import type { SqlConn } from '../sql.js';
import { MAX_FIND_LIMIT, SampleStoreWriteError, SqlSampleStore } from '../sql-store.js';

/** What a backend gives the suite. */
export interface StoreSuiteBackend {
  /**
   * A connection to the suite's database. Called several times per case for concurrent writers:
   * each call may be a new connection to the same database, or the same one again (PGlite in
   * memory); either way all reach the same tables, and the suite closes each.
   */
  connect(): Promise<SqlConn>;
}

const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

/** A pair numbered `i` (model, component and time derived from it), with `over` applied. */
export function suitePair(i: number, over: Partial<SampledPair> = {}): SampledPair {
  return {
    id: `req-${String(i).padStart(6, '0')}`,
    tMs: T0 + i * 1000,
    endpoint: 'chat',
    component: i % 2 === 0 ? 'llama-a' : 'qwen-b',
    model: i % 2 === 0 ? 'llama-3.1-8b' : 'qwen2.5-7b',
    prompt: `user: question ${i}`,
    response: `answer ${i}`,
    status: 200,
    finishReason: 'stop',
    promptTokens: 10 + i,
    completionTokens: 20 + i,
    wantJson: i % 3 === 0,
    ttftS: i % 4 === 0 ? null : 0.125,
    e2eS: 1.5,
    ...over,
  };
}

/** An evaluation of `pairId` by `evaluator`, with `over` applied. */
export function suiteEvaluation(pairId: string, evaluator: string, over: Partial<Evaluation> = {}): Evaluation {
  return { pairId, stage: 1, evaluator, dimension: null, score: 1, flag: null, detail: 'ok', error: null, durationS: 0.0001, judgeTokens: null, tMs: T0, ...over };
}

/** Registers the suite under `name`. */
export function describeSampleStore(name: string, backend: StoreSuiteBackend): void {
  describe(`sample store conformance: ${name}`, () => {
    const opened: { close(): Promise<void> }[] = [];
    const raw = async (): Promise<SqlConn> => {
      const c = await backend.connect();
      opened.push(c);
      return c;
    };
    const open = async (): Promise<SampleStore> => {
      const s = new SqlSampleStore(await raw());
      await s.migrate();
      return s;
    };

    beforeEach(async () => {
      const c = await backend.connect();
      await c.exec('DROP TABLE IF EXISTS quality_evaluations, quality_pairs, schema_migrations CASCADE');
      await c.close();
      return async () => {
        for (const c of opened.splice(0).reverse()) await c.close();
      };
    });

    it('round-trips pairs and their evaluations, newest first', async () => {
      const s = await open();
      const pairs = [0, 1, 2, 3].map((i) => suitePair(i));
      await s.putPairs(pairs);
      const evs = [
        suiteEvaluation(pairs[1].id, 'stage1:refusal', { flag: 'refusal', score: 0, detail: 'refused' }),
        suiteEvaluation(pairs[1].id, 'judge:accuracy', { stage: 2, dimension: 'accuracy', score: 0.25, judgeTokens: { input: 120, output: 30 }, durationS: 0.8 }),
        suiteEvaluation(pairs[2].id, 'judge:safety', { stage: 2, dimension: 'safety', score: null, error: 'judge timed out after 10 s' }),
      ];
      await s.putEvaluations(evs);
      const all = await s.find({});
      expect(all.map((r) => r.pair.id)).toEqual([3, 2, 1, 0].map((i) => suitePair(i).id));
      expect(all.map((r) => r.pair)).toEqual([...pairs].reverse());
      expect(await s.get(pairs[1].id)).toEqual({ pair: pairs[1], evaluations: [evs[0], evs[1]] });
      expect(await s.get(pairs[2].id)).toEqual({ pair: pairs[2], evaluations: [evs[2]] });
      expect(await s.get('no-such-id')).toBeNull();
      const st = await s.stats();
      expect(st).toMatchObject({ pairs: 4, evaluations: 3, oldestMs: pairs[0].tMs });
      expect(st.bytes).toBeGreaterThan(0);
    });

    describe('filters', () => {
      // Pairs 0..9; evaluations: even pairs score accuracy i/10, pairs 3 and 6 are flagged empty,
      // pair 5 has a safety score of 0.1.
      const seed = async (): Promise<SampleStore> => {
        const s = await open();
        await s.putPairs(Array.from({ length: 10 }, (_, i) => suitePair(i)));
        const evs: Evaluation[] = [];
        for (let i = 0; i < 10; i += 2) evs.push(suiteEvaluation(suitePair(i).id, 'judge:accuracy', { stage: 2, dimension: 'accuracy', score: i / 10 }));
        for (const i of [3, 6]) evs.push(suiteEvaluation(suitePair(i).id, 'stage1:empty', { flag: 'empty', score: 0 }));
        evs.push(suiteEvaluation(suitePair(5).id, 'judge:safety', { stage: 2, dimension: 'safety', score: 0.1 }));
        await s.putEvaluations(evs);
        return s;
      };
      it.each<[string, Parameters<SampleStore['find']>[0], number[]]>([
        ['none', {}, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]],
        ['model', { model: 'qwen2.5-7b' }, [9, 7, 5, 3, 1]],
        ['component', { component: 'llama-a' }, [8, 6, 4, 2, 0]],
        ['model and component that do not meet', { model: 'qwen2.5-7b', component: 'llama-a' }, []],
        ['dimension', { dimension: 'accuracy' }, [8, 6, 4, 2, 0]],
        ['dimension and max score', { dimension: 'accuracy', maxScore: 0.4 }, [4, 2, 0]],
        ['dimension and score range', { dimension: 'accuracy', minScore: 0.2, maxScore: 0.6 }, [6, 4, 2]],
        ['max score on any dimension', { maxScore: 0.1 }, [5, 0]],
        ['flag', { flag: 'empty' }, [6, 3]],
        ['flag and model', { flag: 'empty', model: 'llama-3.1-8b' }, [6]],
        ['time range, both ends inclusive', { startMs: T0 + 2000, endMs: T0 + 4000 }, [4, 3, 2]],
        ['limit', { limit: 3 }, [9, 8, 7]],
        ['limit 0', { limit: 0 }, []],
        ['a model name that is SQL', { model: "x' OR '1'='1" }, []],
      ])('%s', async (_, filter, want) => {
        const s = await seed();
        expect((await s.find(filter)).map((r) => r.pair.id)).toEqual(want.map((i) => suitePair(i).id));
      });

      it(`caps the limit at ${MAX_FIND_LIMIT}`, async () => {
        const s = await open();
        await s.putPairs(Array.from({ length: MAX_FIND_LIMIT + 5 }, (_, i) => suitePair(i)));
        expect(await s.find({ limit: 1e9 })).toHaveLength(MAX_FIND_LIMIT);
      });
    });

    it('is idempotent on the pair id, and a repeated evaluation replaces the earlier one', async () => {
      const s = await open();
      await s.putPairs([suitePair(1), suitePair(2)]);
      await s.putPairs([suitePair(1, { response: 'a second answer' }), suitePair(1), suitePair(3)]);
      await s.putEvaluations([suiteEvaluation(suitePair(1).id, 'stage1:empty', { score: 1 })]);
      await s.putEvaluations([suiteEvaluation(suitePair(1).id, 'stage1:empty', { score: 0, flag: 'empty' }), suiteEvaluation(suitePair(1).id, 'stage1:empty', { score: 0, flag: 'empty' })]);
      expect(await s.stats()).toMatchObject({ pairs: 3, evaluations: 1 });
      const got = await s.get(suitePair(1).id);
      expect(got?.pair.response).toBe('answer 1');
      expect(got?.evaluations.map((e) => [e.score, e.flag])).toEqual([[0, 'empty']]);
    });

    describe('a batch is stored whole or not at all', () => {
      it.each<[string, (s: SampleStore) => Promise<void>, string | RegExp, abstract new (...args: never[]) => Error]>([
        ['a pair without an id', (s) => s.putPairs([suitePair(10), suitePair(11, { id: '' }), suitePair(12)]), 'entry 1, id', SampleStoreInputError],
        ['a pair with a fractional time', (s) => s.putPairs([suitePair(10), suitePair(11, { tMs: 1.5 })]), 'entry 1, tMs', SampleStoreInputError],
        ['a score out of range', (s) => s.putEvaluations([suiteEvaluation(suitePair(0).id, 'a'), suiteEvaluation(suitePair(0).id, 'b', { score: 1.5 })]), 'entry 1, score', SampleStoreInputError],
        ['an unknown dimension', (s) => s.putEvaluations([suiteEvaluation(suitePair(0).id, 'a', { dimension: 'wit' as Evaluation['dimension'] })]), 'entry 0, dimension', SampleStoreInputError],
        // Checked in the database, by the statement that inserts the batch.
        ['an evaluation of a pair not stored', (s) => s.putEvaluations([suiteEvaluation(suitePair(0).id, 'a'), suiteEvaluation('not-stored', 'a'), suiteEvaluation(suitePair(0).id, 'b')]), /storing 3 evaluations failed, nothing of the batch was stored/, SampleStoreWriteError],
      ])('%s', async (_, put, message, type) => {
        const s = await open();
        await s.putPairs([suitePair(0)]);
        const before = await s.stats();
        const err = await put(s).then(() => null, (e: unknown) => e);
        expect(err).toBeInstanceOf(type);
        expect((err as Error).message).toMatch(message);
        expect(await s.stats()).toMatchObject({ pairs: before.pairs, evaluations: before.evaluations });
      });
    });

    it('keeps markup, scripts, SQL and Unicode verbatim; NUL becomes U+FFFD', async () => {
      const texts = [
        '<script>alert("x")</script><img src=x onerror=alert(1)>',
        "'); DROP TABLE quality_pairs; --",
        '\\x00 $1 %s {{prompt}} \\u0041',
        'Grüße, 你好, مرحبا, emoji 🤖👍🏽, ZWJ 👩‍💻, combining é, RTL \u202Eabc',
        'line\r\nbreaks\ttabs\u2028',
      ];
      const s = await open();
      await s.putPairs(texts.map((t, i) => suitePair(i, { prompt: t, response: t, model: t })));
      for (const [i, t] of texts.entries()) expect((await s.get(suitePair(i).id))?.pair).toMatchObject({ prompt: t, response: t, model: t });
      expect((await s.find({ model: texts[1] })).map((r) => r.pair.id)).toEqual([suitePair(1).id]);
      await s.putPairs([suitePair(9, { response: 'a\u0000b' })]);
      expect((await s.get(suitePair(9).id))?.pair.response).toBe('a\uFFFDb');
    });

    it(`stores a text of ${MAX_TEXT_CHARS} characters whole and cuts a longer one`, async () => {
      const s = await open();
      const big = 'é'.repeat(MAX_TEXT_CHARS);
      await s.putPairs([suitePair(0, { response: big }), suitePair(1, { prompt: `${big}tail` })]);
      expect((await s.get(suitePair(0).id))?.pair.response).toBe(big);
      const cut = (await s.get(suitePair(1).id))?.pair.prompt ?? '';
      expect(cut).toHaveLength(MAX_TEXT_CHARS);
      expect(cut.endsWith('é…')).toBe(true);
    });

    it('deletes by age, then the oldest down to the size limit, evaluations with their pairs', async () => {
      const s = await open();
      const text = 'x'.repeat(2000);
      await s.putPairs(Array.from({ length: 400 }, (_, i) => suitePair(i, { prompt: `${i}${text}` })));
      await s.putEvaluations(Array.from({ length: 400 }, (_, i) => suiteEvaluation(suitePair(i).id, 'stage1:empty')));
      // By age: pairs 0..99 are older than 300 s before the 400th second.
      expect(await s.enforceRetention(T0 + 400_000, { maxAgeMs: 300_000, maxBytes: Infinity })).toBe(100);
      expect(await s.stats()).toMatchObject({ pairs: 300, evaluations: 300, oldestMs: T0 + 100_000 });
      // By size: half of what the tables take now.
      const full = (await s.stats()).bytes;
      const deleted = await s.enforceRetention(T0 + 400_000, { maxAgeMs: 300_000, maxBytes: full / 2 });
      const after = await s.stats();
      expect(after.bytes).toBeLessThanOrEqual(full / 2);
      expect(deleted).toBeGreaterThan(100);
      expect(after.pairs).toBe(300 - deleted);
      expect(after.evaluations).toBe(after.pairs);
      expect(after.oldestMs).toBe(T0 + (100 + deleted) * 1000);
      // Under both limits: nothing more goes.
      expect(await s.enforceRetention(T0 + 400_000, { maxAgeMs: 300_000, maxBytes: full / 2 })).toBe(0);
    });

    describe('migrations', () => {
      it('creates the schema on an empty database and records every step', async () => {
        const c = await raw();
        expect(await migrate(c)).toBe(SCHEMA_VERSION);
        expect(await migrate(c)).toBe(SCHEMA_VERSION);
        const rows = await c.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      });

      it('upgrades a database at version N-1, keeping its rows', async () => {
        const c = await raw();
        expect(await migrate(c, MIGRATIONS.slice(0, -1))).toBe(SCHEMA_VERSION - 1);
        const old = new SqlSampleStore(c);
        await old.putPairs([suitePair(1)]);
        await old.putEvaluations([suiteEvaluation(suitePair(1).id, 'stage1:empty', { flag: 'empty', score: 0 })]);
        expect(await migrate(c)).toBe(SCHEMA_VERSION);
        expect((await old.find({ flag: 'empty' })).map((r) => r.pair.id)).toEqual([suitePair(1).id]);
      });

      it('refuses a schema newer than it knows, and opens nothing', async () => {
        const c = await raw();
        await migrate(c);
        await c.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)', [SCHEMA_VERSION + 1, 'from the future', T0]);
        const err = await migrate(c).then(() => null, (e: unknown) => e);
        expect(err).toBeInstanceOf(SampleStoreSchemaError);
        expect((err as Error).message).toContain(`schema is at version ${SCHEMA_VERSION + 1}, newer than this Infersight knows (${SCHEMA_VERSION})`);
      });
    });

    it('takes concurrent writers and migrators: every pair and evaluation stored once', async () => {
      const stores = await Promise.all([0, 1, 2, 3].map(async () => new SqlSampleStore(await raw())));
      await Promise.all(stores.map((s) => s.migrate()));
      // Each writer writes 300 pairs, half of them shared with the next writer, in opposite orders.
      await Promise.all(
        stores.map(async (s, w) => {
          for (let b = 0; b < 3; b++) {
            const ids = Array.from({ length: 100 }, (_, k) => w * 150 + b * 100 + k);
            const pairs = (w % 2 === 0 ? ids : ids.reverse()).map((i) => suitePair(i));
            await s.putPairs(pairs);
            await s.putEvaluations(pairs.map((p) => suiteEvaluation(p.id, 'stage1:empty')));
          }
        }),
      );
      const want = new Set(stores.flatMap((_, w) => Array.from({ length: 300 }, (_, k) => w * 150 + k)));
      expect(await stores[0].stats()).toMatchObject({ pairs: want.size, evaluations: want.size });
    });
  });
}
