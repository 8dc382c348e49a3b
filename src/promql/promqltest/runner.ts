import type { QueryEngine, QueryResult } from '../engine/types.js';
import { QueryError } from '../errors.js';
import type { Expr } from '../parser/ast.js';
import type { Sample } from '../value.js';
import { QUERY_FRAME_FUNCTION_CALL, atModifierVariants, usesQueryFrame } from './at-modifier.js';
import { checkMatrixSorted, compareResult } from './compare.js';
import { checkAnnotations, checkExpectedFailure, type CheckFailure, type MessageMode } from './expectations.js';
import { applyLoad } from './load.js';
import { MemoryStorage } from './memory-storage.js';
import { parseScript, type EvalCommand, type Script } from './script.js';
import { isFail, isOrdered } from './script-types.js';

/** What the runner needs from the PromQL implementation under test. */
export interface RunnerDeps {
  /** Creates the engine a script runs on (once per script), set up as `TEST_ENGINE_OPTIONS` says. */
  readonly newEngine: () => QueryEngine;
  /** Parses an eval expression with every experimental parser option on; throws on bad syntax. */
  readonly parseExpr: (input: string) => Expr;
  /** Prints an expression (for failure reasons about @ variants); optional. */
  readonly formatExpr?: (expr: Expr) => string;
}

/** How one eval ended. */
export type EvalStatus = 'pass' | 'fail' | 'skip';

/** The outcome of one `eval` command. */
export interface EvalRecord {
  readonly file: string;
  /** 1-based line of the `eval` line. */
  readonly line: number;
  readonly expr: string;
  readonly status: EvalStatus;
  /** Why it failed or was skipped; '' for a pass. */
  readonly reason: string;
  /** A failure that only the wording of an error or annotation caused (`lenient` mode passes it). */
  readonly lenientPass: boolean;
}

/** Per-run choices. */
export interface RunOptions {
  /** Returns why an eval must not run (it is then recorded as skipped), or null to run it. */
  readonly skip?: (cmd: EvalCommand) => string | null;
}

/**
 * Runs a parsed script as test.go's `runTest` does, on a fresh `MemoryStorage`: `load` writes,
 * `clear` empties, and every `eval` becomes one record. An instant eval runs the expression, then
 * its @-modifier variants, each followed by the range-mode check (T−1m..T+1m, step 1m), stopping at
 * the first failure; a range eval runs once. A failure caused only by message wording is retried
 * with `lenient` message matching (query results are reused) and flagged in the record.
 */
export async function runScript(script: Script, deps: RunnerDeps, opts: RunOptions = {}): Promise<EvalRecord[]> {
  const storage = new MemoryStorage();
  const engine = deps.newEngine();
  const records: EvalRecord[] = [];
  for (const cmd of script.commands) {
    if (cmd.kind === 'clear') storage.clear();
    else if (cmd.kind === 'load') applyLoad(storage, cmd);
    else records.push(await runEval(script.file, cmd, new QueryCache(engine, storage), deps, opts));
  }
  return records;
}

/** Parses a script's text (throwing `ScriptError` on bad syntax) and runs it with `runScript`. */
export async function runScriptText(file: string, text: string, deps: RunnerDeps, opts: RunOptions = {}): Promise<EvalRecord[]> {
  return runScript(parseScript(file, text), deps, opts);
}

async function runEval(file: string, cmd: EvalCommand, cache: QueryCache, deps: RunnerDeps, opts: RunOptions): Promise<EvalRecord> {
  const base = { file, line: cmd.line, expr: cmd.expr };
  const skip = opts.skip?.(cmd) ?? null;
  if (skip !== null) return { ...base, status: 'skip', reason: skip, lenientPass: false };
  let ast: Expr;
  try {
    ast = deps.parseExpr(cmd.expr);
  } catch (e) {
    return { ...base, status: 'fail', reason: `parse error: ${errorText(e)}`, lenientPass: false };
  }
  const run = (mode: MessageMode): Promise<CheckFailure | null> =>
    cmd.isRange ? runRange(cmd, cache, mode) : runInstant(cmd, ast, cache, deps, mode);
  const strict = await run('strict');
  if (strict === null) return { ...base, status: 'pass', reason: '', lenientPass: false };
  const lenientPass = strict.messageOnly && (await run('lenient')) === null;
  return { ...base, status: 'fail', reason: strict.reason, lenientPass };
}

const fail = (reason: string): CheckFailure => ({ reason, messageOnly: false });

/** One query of an instant eval: the original (variant 0) or an @ variant. */
interface InstantQuery {
  readonly variant: number;
  readonly query: string | Expr;
  readonly tMs: number;
  /** How reasons name the query. */
  readonly text: string;
}

async function runInstant(cmd: EvalCommand, ast: Expr, cache: QueryCache, deps: RunnerDeps, mode: MessageMode): Promise<CheckFailure | null> {
  const queries: InstantQuery[] = [{ variant: 0, query: cmd.expr, tMs: cmd.evalMs, text: cmd.expr }];
  for (const [i, v] of atModifierVariants(ast, cmd.evalMs).entries()) {
    const printed = deps.formatExpr?.(v.expr) ?? `${cmd.expr} (with @ ${cmd.evalMs / 1000})`;
    queries.push({ variant: i + 1, query: v.expr, tMs: v.tMs, text: `${printed} at ${v.tMs}ms` });
  }
  for (const q of queries) {
    const failure = await runInstantQuery(cmd, q, cache, mode);
    if (failure !== null) return failure;
  }
  return null;
}

async function runInstantQuery(cmd: EvalCommand, q: InstantQuery, cache: QueryCache, mode: MessageMode): Promise<CheckFailure | null> {
  const out = await cache.run(`i${q.variant}@${q.tMs}`, (engine, storage) => engine.instantQuery(storage, q.query, q.tMs));
  if (!out.ok) return queryFailed(cmd, q.text, out, mode);
  if (isFail(cmd)) return fail(`expected error evaluating query ${JSON.stringify(q.text)} (line ${cmd.line}) but got none`);
  const res = out.result;
  const annotations = checkAnnotations(cmd, q.text, res.warnings, res.infos, mode);
  if (annotations !== null) return annotations;
  const diff = compareResult(cmd, res.value);
  if (diff !== null) return fail(`error in eval ${q.text} (line ${cmd.line}): ${diff}`);
  if (cmd.excludeFromRangeQuery) return null;
  // Queries using start(), end(), range() or step() resolve differently in a range query.
  const frame = typeof q.query === 'string' ? QUERY_FRAME_FUNCTION_CALL.test(q.query) : usesQueryFrame(q.query);
  if (frame) return null;
  const [startMs, endMs] = [q.tMs - 60_000, q.tMs + 60_000];
  const ranged = await cache.run(`r${q.variant}@${q.tMs}`, (engine, storage) => engine.rangeQuery(storage, q.query, startMs, endMs, 60_000));
  if (!ranged.ok) return fail(`error evaluating query ${JSON.stringify(q.text)} (line ${cmd.line}) in range mode: ${ranged.error}`);
  // Range results are always sorted by labels, so an ordered expectation cannot be checked.
  if (isOrdered(cmd)) return null;
  const value = ranged.result.value;
  if (value.type !== 'matrix') return fail(`range query for ${JSON.stringify(q.text)} (line ${cmd.line}) returned a ${value.type}, not a matrix`);
  const unsorted = checkMatrixSorted(value.v);
  if (unsorted !== null) return fail(unsorted);
  const vec: Sample[] = [];
  for (const s of value.v) {
    const i = s.t.indexOf(q.tMs);
    if (i >= 0) vec.push({ metric: s.metric, t: q.tMs, f: s.f[i], dropName: false });
  }
  let diff2: string | null;
  if (res.value.type === 'scalar') {
    diff2 = vec.length === 0 ? `range query returned no point at ${q.tMs}` : compareResult(cmd, { type: 'scalar', t: q.tMs, v: vec[0].f });
  } else {
    diff2 = compareResult(cmd, { type: 'vector', v: vec });
  }
  return diff2 === null ? null : fail(`error in eval ${q.text} (line ${cmd.line}) range mode: ${diff2}`);
}

async function runRange(cmd: EvalCommand, cache: QueryCache, mode: MessageMode): Promise<CheckFailure | null> {
  const out = await cache.run('range', (engine, storage) => engine.rangeQuery(storage, cmd.expr, cmd.startMs, cmd.endMs, cmd.stepMs));
  if (!out.ok) return queryFailed(cmd, cmd.expr, out, mode);
  if (isFail(cmd)) return fail(`expected error evaluating query ${JSON.stringify(cmd.expr)} (line ${cmd.line}) but got none`);
  const annotations = checkAnnotations(cmd, cmd.expr, out.result.warnings, out.result.infos, mode);
  if (annotations !== null) return annotations;
  const diff = compareResult(cmd, out.result.value);
  return diff === null ? null : fail(`error in eval ${cmd.expr} (line ${cmd.line}): ${diff}`);
}

/** A query rejected: fine when the eval expects failure and the error matches. */
function queryFailed(cmd: EvalCommand, text: string, out: Failed, mode: MessageMode): CheckFailure | null {
  if (!out.queryError) return fail(`engine threw a non-QueryError evaluating query ${JSON.stringify(text)} (line ${cmd.line}): ${out.error}`);
  if (isFail(cmd)) return checkExpectedFailure(cmd, out.error, mode);
  return fail(`error evaluating query ${JSON.stringify(text)} (line ${cmd.line}): ${out.error}`);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface Failed {
  readonly ok: false;
  readonly error: string;
  /** False when the engine threw something other than a `QueryError` (a bug, never an expected failure). */
  readonly queryError: boolean;
}
type Outcome = { readonly ok: true; readonly result: QueryResult } | Failed;

/**
 * The queries of one eval, run at most once each: the lenient re-check of an eval reuses them.
 * Keys name the query within the eval.
 */
class QueryCache {
  private readonly outcomes = new Map<string, Outcome>();

  constructor(
    private readonly engine: QueryEngine,
    private readonly storage: MemoryStorage,
  ) {}

  async run(key: string, query: (engine: QueryEngine, storage: MemoryStorage) => Promise<QueryResult>): Promise<Outcome> {
    const cached = this.outcomes.get(key);
    if (cached !== undefined) return cached;
    let out: Outcome;
    try {
      out = { ok: true, result: await query(this.engine, this.storage) };
    } catch (e) {
      out = { ok: false, error: errorText(e), queryError: e instanceof QueryError };
    }
    this.outcomes.set(key, out);
    return out;
  }
}
