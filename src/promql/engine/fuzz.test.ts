import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import { QueryError } from '../errors.js';
import { ParseError, parseExpr, type Expr } from '../parser/index.js';
import { MemoryStorage } from '../promqltest/memory-storage.js';
import { Engine } from './index.js';

const INDEX = resolve(process.cwd(), '../shared/conformance/promqltest/index.tsv');

/** The conformance expressions, or a small built-in set when ../shared is absent. */
function corpus(): string[] {
  if (!existsSync(INDEX)) {
    return ['sum by (job) (rate(http_requests_total[5m]))', 'topk(2, x) or on() vector(1)', 'x[10m:1m] offset 1m', 'histogram_quantile(0.9, x)'];
  }
  return readFileSync(INDEX, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[8])
    .filter((e): e is string => e !== undefined && e !== '');
}

/** Series whose names the conformance files use most, with counters, gauges, NaN and stale markers. */
function fixture(): MemoryStorage {
  const s = new MemoryStorage();
  const names = ['http_requests', 'http_requests_total', 'metric', 'foo', 'bar', 'x', 'testcounter_reset_middle_total', 'data'];
  let n = 0;
  for (const name of names) {
    for (const job of ['api', 'app']) {
      const labels = Labels.from({ __name__: name, job, instance: String(n++ % 3), le: String(n % 4 === 0 ? '+Inf' : n % 4) });
      for (let t = 0; t <= 3_600_000; t += 60_000) {
        const v = t === 1_800_000 ? NaN : (t / 60_000) * (n % 5) - (n % 2 === 0 ? 0 : 7);
        s.add(labels, t, v);
      }
    }
  }
  return s;
}

const engine = new Engine({
  maxSamples: 200_000,
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
  enableDelayedNameRemoval: true,
});
const storage = fixture();

let evaluated = 0;

/** Evaluates as an instant and a range query; only a QueryError may come out. */
async function check(query: string): Promise<void> {
  let expr: Expr;
  try {
    expr = parseExpr(query, engine.parserOptions);
  } catch (err) {
    if (err instanceof ParseError) return;
    throw err;
  }
  for (const run of [
    () => engine.instantQuery(storage, expr, 1_800_000),
    () => engine.rangeQuery(storage, expr, 0, 3_600_000, 300_000),
  ]) {
    try {
      await run();
      evaluated++;
    } catch (err) {
      if (!(err instanceof QueryError)) throw new Error(`${query}: ${String(err)}`, { cause: err });
      expect(['bad_data', 'execution', 'timeout']).toContain(err.errorType);
    }
  }
}

describe('evaluator fuzz', () => {
  const exprs = corpus();

  it('evaluates every conformance expression without an unexpected error', async () => {
    for (const q of exprs) await check(q);
    // Most conformance expressions are valid and must really run, or this test proves nothing.
    expect(evaluated).toBeGreaterThan(exprs.length);
  });

  it('evaluates mutated conformance expressions without an unexpected error', async () => {
    const mutation = fc.record({
      expr: fc.constantFrom(...exprs),
      at: fc.nat(),
      op: fc.constantFrom('delete', 'duplicate', 'swap', 'insert'),
      insert: fc.constantFrom('(', ')', '[1m]', '[5m:1m]', ' offset 1m', ' @ 100', '-', ' or x', ' * on() group_left ', '0', 'NaN'),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ expr, at, op, insert }) => {
        const i = at % (expr.length + 1);
        const mutated =
          op === 'delete'
            ? expr.slice(0, i) + expr.slice(i + 1)
            : op === 'duplicate'
              ? expr.slice(0, i) + expr.slice(i, i + 3) + expr.slice(i)
              : op === 'swap'
                ? expr.slice(0, i) + expr.slice(i + 1, i + 2) + expr.slice(i, i + 1) + expr.slice(i + 2)
                : expr.slice(0, i) + insert + expr.slice(i);
        await check(mutated);
      }),
      { numRuns: 1500, seed: 42 },
    );
  });
});
