import { compileAnchoredRe2, goExpandMatch, METRIC_NAME_LABEL, type Re2Regexp } from '../../model/index.js';
import type { Expr } from '../parser/ast.js';
import { QueryError } from '../errors.js';
import type { Vector } from '../value.js';
import { isValidLabelName, sample, stringArg } from './args.js';
import { DUPLICATE_LABELSET_ERROR } from './messages.js';
import type { InstantFunction } from './types.js';

/** `label_replace` and `label_join`, as Prometheus' `evalLabelReplace` and `evalLabelJoin`. */

// Compiled regexes by their argument node: a call site compiles its pattern once per query.
const regexCache = new WeakMap<Expr, Re2Regexp>();

function compileArg(arg: Expr): Re2Regexp {
  let re = regexCache.get(arg);
  if (re === undefined) {
    const pattern = stringArg(arg);
    try {
      re = compileAnchoredRe2(pattern);
    } catch {
      throw new QueryError('execution', `invalid regular expression in label_replace(): ${pattern}`);
    }
    regexCache.set(arg, re);
  }
  return re;
}



/** Throws Prometheus' error when two samples of `v` have the same labels. */
function assertUniqueLabels(v: Vector): void {
  if (v.length < 2) return;
  const seen = new Set<string>();
  for (const s of v) {
    const k = s.metric.key();
    if (seen.has(k)) throw new QueryError('execution', DUPLICATE_LABELSET_ERROR);
    seen.add(k);
  }
}

/**
 * `label_replace(v, dst, replacement, src, regex)`: where `regex` matches the whole value of `src`
 * (missing labels read as ''), sets `dst` to the expanded replacement (removing it when empty).
 * Fails for an invalid regex or destination name, or when two outputs end up with the same labels.
 */
export const labelReplace: InstantFunction = (vectors, ctx) => {
  const args = ctx.args;
  const dst = stringArg(args[1]);
  const replacement = stringArg(args[2]);
  const src = stringArg(args[3]);
  const re = compileArg(args[4]);
  if (!isValidLabelName(dst)) throw new QueryError('execution', `invalid destination label name in label_replace(): ${dst}`);
  const out: Vector = [];
  for (const s of vectors[0]) {
    const m = re.exec(s.metric.get(src));
    if (m === null) {
      out.push(sample(s.metric, ctx.tMs, s.f, s.dropName));
      continue;
    }
    const metric = s.metric.with(dst, goExpandMatch(replacement, m));
    out.push(sample(metric, ctx.tMs, s.f, dst === METRIC_NAME_LABEL ? false : s.dropName));
  }
  assertUniqueLabels(out);
  return out;
};

/**
 * `label_join(v, dst, separator, src...)`: sets `dst` to the values of the `src` labels (missing
 * ones read as '') joined with `separator`, removing it when the result is empty.
 */
export const labelJoin: InstantFunction = (vectors, ctx) => {
  const args = ctx.args;
  const dst = stringArg(args[1]);
  const sep = stringArg(args[2]);
  const srcs: string[] = [];
  for (let i = 3; i < args.length; i++) {
    const src = stringArg(args[i]);
    if (!isValidLabelName(src)) throw new QueryError('execution', `invalid source label name in label_join(): ${src}`);
    srcs.push(src);
  }
  if (!isValidLabelName(dst)) throw new QueryError('execution', `invalid destination label name in label_join(): ${dst}`);
  const out: Vector = [];
  for (const s of vectors[0]) {
    const value = srcs.map((n) => s.metric.get(n)).join(sep);
    const metric = s.metric.with(dst, value);
    out.push(sample(metric, ctx.tMs, s.f, dst === METRIC_NAME_LABEL ? false : s.dropName));
  }
  assertUniqueLabels(out);
  return out;
};
