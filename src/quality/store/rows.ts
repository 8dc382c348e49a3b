/**
 * Checking a batch before it is written, and turning rows into the column arrays one
 * `INSERT … SELECT FROM unnest($1::text[], …)` takes: a batch of any size is one statement with a
 * fixed number of parameters (no statement text built from values, no parameter limit), which is
 * what makes a batch of thousands of pairs cost one round trip.
 */
import { QUALITY_DIMENSIONS, STAGE1_FLAGS, type Evaluation, type SampledPair } from '../types.js';

/** A batch the store refused before writing anything: `index` and `field` name the first bad entry. */
export class SampleStoreInputError extends Error {
  /** `message` names the entry and says what is wrong with it. */
  constructor(
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(`quality sample store: entry ${index}, ${field}: ${message}; nothing of the batch was stored`);
    this.name = 'SampleStoreInputError';
  }
}

/** The longest text kept (characters); longer prompts, answers and details are cut, ending in `…`. */
export const MAX_TEXT_CHARS = 1_048_576;

const DIMENSIONS = new Set<string>(QUALITY_DIMENSIONS);
const FLAGS = new Set<string>(STAGE1_FLAGS);
const INT32 = 2 ** 31 - 1;

/**
 * A text as PostgreSQL's `text` can hold it: NUL (which `text` refuses) becomes U+FFFD, and a text
 * longer than `MAX_TEXT_CHARS` is cut. Everything else (markup, scripts, any Unicode) is kept
 * verbatim: the UI renders texts as text.
 */
export function storableText(s: string): string {
  const t = s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s;
  return t.length > MAX_TEXT_CHARS ? `${t.slice(0, MAX_TEXT_CHARS - 1)}…` : t;
}

function check(ok: boolean, index: number, field: string, message: string): void {
  if (!ok) throw new SampleStoreInputError(index, field, message);
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isTime = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isCount = (v: unknown): boolean => v === null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT32);
const isSeconds = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The pair columns, in the table's order. */
export const PAIR_COLUMNS = 'id, t_ms, endpoint, component, model, prompt, response, status, finish_reason, prompt_tokens, completion_tokens, want_json, ttft_s, e2e_s';
/** The SQL types of `PAIR_COLUMNS`, for `unnest`. */
export const PAIR_TYPES = ['text', 'bigint', 'text', 'text', 'text', 'text', 'text', 'integer', 'text', 'integer', 'integer', 'boolean', 'float8', 'float8'];

/** Checks `pairs` and returns their columns, one array per column, sorted by id (writers lock rows in one order) and last-wins on a repeated id. */
export function pairColumns(pairs: readonly SampledPair[]): unknown[][] {
  const byId = new Map<string, SampledPair>();
  pairs.forEach((p, i) => {
    check(isStr(p.id) && p.id !== '', i, 'id', 'want a non-empty string');
    check(isTime(p.tMs), i, 'tMs', 'want a non-negative integer of milliseconds');
    for (const f of ['endpoint', 'component', 'model', 'prompt', 'response'] as const) check(isStr(p[f]), i, f, 'want a string');
    check(Number.isInteger(p.status) && p.status >= 0 && p.status <= 999, i, 'status', 'want an HTTP status');
    check(p.finishReason === null || isStr(p.finishReason), i, 'finishReason', 'want a string or null');
    check(isCount(p.promptTokens), i, 'promptTokens', 'want a token count or null');
    check(isCount(p.completionTokens), i, 'completionTokens', 'want a token count or null');
    check(typeof p.wantJson === 'boolean', i, 'wantJson', 'want a boolean');
    check(p.ttftS === null || isSeconds(p.ttftS), i, 'ttftS', 'want seconds or null');
    check(isSeconds(p.e2eS), i, 'e2eS', 'want seconds');
    byId.set(p.id, p);
  });
  const sorted = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const cols: unknown[][] = PAIR_TYPES.map(() => []);
  for (const p of sorted) {
    const row = [p.id, p.tMs, storableText(p.endpoint), storableText(p.component), storableText(p.model), storableText(p.prompt), storableText(p.response), p.status, p.finishReason === null ? null : storableText(p.finishReason), p.promptTokens, p.completionTokens, p.wantJson, p.ttftS, p.e2eS];
    row.forEach((v, c) => cols[c].push(v));
  }
  return cols;
}

/** The evaluation columns, in the table's order. */
export const EVALUATION_COLUMNS = 'pair_id, evaluator, stage, dimension, score, flag, detail, error, duration_s, judge_input_tokens, judge_output_tokens, t_ms';
/** The SQL types of `EVALUATION_COLUMNS`. */
export const EVALUATION_TYPES = ['text', 'text', 'smallint', 'text', 'float8', 'text', 'text', 'text', 'float8', 'integer', 'integer', 'bigint'];

/** Checks `evaluations` and returns their columns, sorted by (pair, evaluator), last-wins on a repeated key. */
export function evaluationColumns(evaluations: readonly Evaluation[]): unknown[][] {
  const byKey = new Map<string, Evaluation>();
  evaluations.forEach((e, i) => {
    check(isStr(e.pairId) && e.pairId !== '', i, 'pairId', 'want a non-empty string');
    check(isStr(e.evaluator) && e.evaluator !== '', i, 'evaluator', 'want a non-empty string');
    check(e.stage === 1 || e.stage === 2, i, 'stage', 'want 1 or 2');
    check(e.dimension === null || DIMENSIONS.has(e.dimension), i, 'dimension', `want one of ${QUALITY_DIMENSIONS.join(', ')} or null`);
    check(e.score === null || (typeof e.score === 'number' && e.score >= 0 && e.score <= 1), i, 'score', 'want a number in [0, 1] or null');
    check(e.flag === null || FLAGS.has(e.flag), i, 'flag', `want one of ${STAGE1_FLAGS.join(', ')} or null`);
    check(isStr(e.detail), i, 'detail', 'want a string');
    check(e.error === null || isStr(e.error), i, 'error', 'want a string or null');
    check(isSeconds(e.durationS), i, 'durationS', 'want seconds');
    check(e.judgeTokens === null || (isCount(e.judgeTokens.input) && isCount(e.judgeTokens.output)), i, 'judgeTokens', 'want token counts or null');
    check(isTime(e.tMs), i, 'tMs', 'want a non-negative integer of milliseconds');
    byKey.set(`${e.pairId}\u0000${e.evaluator}`, e);
  });
  const sorted = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
  const cols: unknown[][] = EVALUATION_TYPES.map(() => []);
  for (const e of sorted) {
    const row = [e.pairId, storableText(e.evaluator), e.stage, e.dimension, e.score, e.flag, storableText(e.detail), e.error === null ? null : storableText(e.error), e.durationS, e.judgeTokens?.input ?? null, e.judgeTokens?.output ?? null, e.tMs];
    row.forEach((v, c) => cols[c].push(v));
  }
  return cols;
}

/** A pair row as the queries select it (bigints cast to float8, so both drivers return numbers). */
export interface PairRow {
  id: string;
  t_ms: number;
  endpoint: string;
  component: string;
  model: string;
  prompt: string;
  response: string;
  status: number;
  finish_reason: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  want_json: boolean;
  ttft_s: number | null;
  e2e_s: number;
}

/** An evaluation row as the queries select it. */
export interface EvaluationRow {
  pair_id: string;
  evaluator: string;
  stage: number;
  dimension: string | null;
  score: number | null;
  flag: string | null;
  detail: string;
  error: string | null;
  duration_s: number;
  judge_input_tokens: number | null;
  judge_output_tokens: number | null;
  t_ms: number;
}

/** The select list of a pair (alias `p`). */
export const PAIR_SELECT = PAIR_COLUMNS.split(', ').map((c) => (c === 't_ms' ? 'p.t_ms::float8 AS t_ms' : `p.${c}`)).join(', ');
/** The select list of an evaluation (alias `e`). */
export const EVALUATION_SELECT = EVALUATION_COLUMNS.split(', ').map((c) => (c === 't_ms' ? 'e.t_ms::float8 AS t_ms' : `e.${c}`)).join(', ');

/** A pair row as the contract's `SampledPair`. */
export function pairOf(r: PairRow): SampledPair {
  return {
    id: r.id,
    tMs: r.t_ms,
    endpoint: r.endpoint,
    component: r.component,
    model: r.model,
    prompt: r.prompt,
    response: r.response,
    status: r.status,
    finishReason: r.finish_reason,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    wantJson: r.want_json,
    ttftS: r.ttft_s,
    e2eS: r.e2e_s,
  };
}

/** An evaluation row as the contract's `Evaluation`. */
export function evaluationOf(r: EvaluationRow): Evaluation {
  return {
    pairId: r.pair_id,
    stage: r.stage === 2 ? 2 : 1,
    evaluator: r.evaluator,
    dimension: r.dimension as Evaluation['dimension'],
    score: r.score,
    flag: r.flag as Evaluation['flag'],
    detail: r.detail,
    error: r.error,
    durationS: r.duration_s,
    judgeTokens: r.judge_input_tokens === null || r.judge_output_tokens === null ? null : { input: r.judge_input_tokens, output: r.judge_output_tokens },
    tMs: r.t_ms,
  };
}
