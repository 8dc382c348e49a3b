import type { EvalRecord } from './runner.js';

/**
 * The baseline of the upstream run: the sorted `file:line` list of evals that pass. The suite
 * fails when an eval on the list stops passing, and never because an eval that was not on it
 * fails. Regenerate with `UPDATE_PROMQLTEST_BASELINE=1 npx vitest run src/promql/promqltest`.
 */

/** `file:line` of a record. */
export function evalKey(r: { file: string; line: number }): string {
  return `${r.file}:${r.line}`;
}

/** Orders `file:line` keys by file name, then numerically by line. */
export function compareKeys(a: string, b: string): number {
  const [fa, la] = splitKey(a);
  const [fb, lb] = splitKey(b);
  return fa < fb ? -1 : fa > fb ? 1 : la - lb;
}

function splitKey(k: string): [string, number] {
  const i = k.lastIndexOf(':');
  return [k.slice(0, i), Number(k.slice(i + 1))];
}

/** Reads a baseline file: one `file:line` per line; blank lines and `#` comments ignored. */
export function parseBaseline(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}

/** Writes the baseline for a run: every passing eval, sorted. */
export function formatBaseline(records: readonly EvalRecord[]): string {
  const keys = records.filter((r) => r.status === 'pass').map(evalKey).sort(compareKeys);
  return `# promqltest baseline: upstream evals that pass. Regenerate: UPDATE_PROMQLTEST_BASELINE=1 npx vitest run src/promql/promqltest\n${keys.join('\n')}\n`;
}

/** How a run relates to the baseline. */
export interface BaselineDiff {
  /** Baseline evals that no longer pass (failed, skipped, or gone). */
  readonly regressions: readonly string[];
  /** Passing evals not yet in the baseline. */
  readonly newlyPassing: readonly string[];
}

/** Compares a run with the baseline. */
export function diffBaseline(records: readonly EvalRecord[], baseline: ReadonlySet<string>): BaselineDiff {
  const status = new Map(records.map((r) => [evalKey(r), r]));
  const regressions = [...baseline].filter((k) => status.get(k)?.status !== 'pass').sort(compareKeys);
  const newlyPassing = records.filter((r) => r.status === 'pass' && !baseline.has(evalKey(r))).map(evalKey).sort(compareKeys);
  return { regressions, newlyPassing };
}

/** The one-line summary: `promqltest: P passed, F failed, S skipped-with-reason`. */
export function formatSummary(records: readonly EvalRecord[]): string {
  const n = (s: EvalRecord['status']): number => records.filter((r) => r.status === s).length;
  return `promqltest: ${n('pass')} passed, ${n('fail')} failed, ${n('skip')} skipped-with-reason`;
}

/** A human-readable report: the summary, every failure (file:line, expr, reason) and the skip reasons. */
export function formatReport(records: readonly EvalRecord[]): string {
  const failures = records.filter((r) => r.status === 'fail');
  const lenient = failures.filter((r) => r.lenientPass).length;
  const out = [formatSummary(records), `${lenient} of the failures pass when msg:/regex: expectations are read leniently (marked [lenient pass]).`, ''];
  out.push(`FAILURES (${failures.length})`);
  for (const r of failures) {
    out.push(`${evalKey(r)}${r.lenientPass ? ' [lenient pass]' : ''}`, `  expr:   ${r.expr}`, `  reason: ${r.reason.replaceAll('\n', '\n          ')}`);
  }
  const skips = new Map<string, number>();
  for (const r of records) if (r.status === 'skip') skips.set(r.reason, (skips.get(r.reason) ?? 0) + 1);
  out.push('', 'SKIPPED (by reason)');
  for (const [reason, count] of skips) out.push(`  ${count}  ${reason}`);
  return `${out.join('\n')}\n`;
}
