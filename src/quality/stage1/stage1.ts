/**
 * Stage 1: the cheap checks every sampled pair gets, one `Evaluation` per check (stage 1,
 * evaluator `stage1:<check>`, score 1 passed or 0 flagged, the flag, a detail in words). Every
 * check is a plain scan, linear in the texts: hostile answers (megabytes, markup, scripts, odd
 * Unicode) cost time in proportion to their length and nothing more.
 */
import type { Evaluation, SampledPair, Stage1Flag } from '../types.js';
import { compileBlocklist, type Blocklist } from './blocklist.js';
import { languageMismatch } from './language.js';
import type { LengthTracker } from './length.js';
import { findPii, type PiiKind } from './pii.js';
import { findRefusal } from './refusal.js';
import { invalidJson, isBlank, truncation } from './shape.js';

/** The stage-1 checks, in the order `runStage1` returns them (one per flag). */
export const STAGE1_CHECKS: readonly Stage1Flag[] = ['refusal', 'empty', 'truncated', 'invalid_json', 'pii', 'blocklist', 'language_mismatch', 'length_anomaly'];

/** What stage 1 needs beyond the pair. */
export interface Stage1Options {
  /** The blocklist (`compileBlocklist`), or its entries. None by default. */
  readonly blocklist?: Blocklist | readonly string[];
  /** The running length baselines; without one the length check passes ("no baseline"). */
  readonly lengths?: LengthTracker;
  /** PII kinds that are not flagged (an internal deployment may allow IPs). */
  readonly allowPii?: readonly PiiKind[];
  /** Confidence both sides need before a language mismatch is flagged (default 0.5). */
  readonly languageConfidence?: number;
  /** The evaluation time (default: the pair's). */
  readonly tMs?: number;
  /** A monotonic clock in milliseconds for the durations (default `performance.now`). */
  readonly monotonicMs?: () => number;
}

type Outcome = readonly [flagged: boolean, detail: string];

const blocklists = new WeakMap<readonly string[], Blocklist>();
function blocklistOf(b: Stage1Options['blocklist']): Blocklist | null {
  if (b === undefined) return null;
  if (!Array.isArray(b)) return b as Blocklist;
  const list = b as readonly string[];
  let c = blocklists.get(list);
  if (c === undefined) blocklists.set(list, (c = compileBlocklist(list)));
  return c;
}

/** The answer's length in tokens: the engine's count, or an estimate of four characters per token. */
function answerTokens(pair: SampledPair): number {
  return pair.completionTokens ?? Math.ceil(pair.response.length / 4);
}

function check(flag: Stage1Flag, pair: SampledPair, o: Stage1Options, blocklist: Blocklist | null): Outcome {
  const r = pair.response;
  switch (flag) {
    case 'refusal': {
      const f = findRefusal(r);
      return f === null ? [false, 'no refusal phrase'] : [true, `refusal phrase (${f.lang}): "${f.phrase}"`];
    }
    case 'empty':
      return isBlank(r) ? [true, r.length === 0 ? 'the answer is empty' : 'the answer is only whitespace'] : [false, `${r.length} characters`];
    case 'truncated': {
      const why = truncation(r, pair.finishReason);
      return why === null ? [false, `finish_reason ${pair.finishReason ?? 'none'}`] : [true, why];
    }
    case 'invalid_json': {
      if (!pair.wantJson) return [false, 'JSON was not asked for'];
      const why = invalidJson(r);
      return why === null ? [false, 'the answer is valid JSON'] : [true, why];
    }
    case 'pii': {
      const found = findPii(r);
      const allowed = new Set(o.allowPii ?? []);
      const kinds = Object.entries(found).filter(([k]) => !allowed.has(k as PiiKind));
      return kinds.length === 0 ? [false, 'no PII pattern'] : [true, `PII patterns: ${kinds.map(([k, n]) => `${k} ×${n}`).join(', ')}`];
    }
    case 'blocklist': {
      if (blocklist === null || blocklist.size === 0) return [false, 'no blocklist configured'];
      const hits = blocklist.find(r);
      return hits.length === 0 ? [false, `none of ${blocklist.size} blocked terms`] : [true, `blocked terms: ${hits.slice(0, 10).map((h) => JSON.stringify(h)).join(', ')}${hits.length > 10 ? ', …' : ''}`];
    }
    case 'language_mismatch': {
      const m = languageMismatch(pair.prompt, r, o.languageConfidence);
      const words = `prompt ${m.prompt.lang}, answer ${m.response.lang}`;
      return [m.mismatch, m.mismatch ? `the answer's language differs: ${words}` : words];
    }
    case 'length_anomaly': {
      if (o.lengths === undefined) return [false, 'no length baseline'];
      const tokens = answerTokens(pair);
      const v = o.lengths.observe(pair.model, tokens);
      if (v.z === null) return [false, `${tokens} tokens; baseline still filling`];
      return [v.anomaly, `${tokens} tokens against a median of ${v.median}: robust z ${v.z.toFixed(2)}`];
    }
  }
}

const now = (): number => performance.now();

/**
 * Runs every stage-1 check on `pair` and returns one evaluation per check, in `STAGE1_CHECKS`
 * order. Never throws for any text; `lengths` (when given) is updated with the answer's length.
 */
export function runStage1(pair: SampledPair, o: Stage1Options = {}): Evaluation[] {
  const blocklist = blocklistOf(o.blocklist);
  const clock = o.monotonicMs ?? now;
  const tMs = o.tMs ?? pair.tMs;
  const out: Evaluation[] = [];
  for (const flag of STAGE1_CHECKS) {
    const t0 = clock();
    const [flagged, detail] = check(flag, pair, o, blocklist);
    out.push({
      pairId: pair.id,
      stage: 1,
      evaluator: `stage1:${flag}`,
      dimension: null,
      score: flagged ? 0 : 1,
      flag: flagged ? flag : null,
      detail,
      error: null,
      durationS: Math.max(0, (clock() - t0) / 1000),
      judgeTokens: null,
      tMs,
    });
  }
  return out;
}
