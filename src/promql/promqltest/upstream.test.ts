/* eslint-disable no-console -- the summary line and the report path are this suite's output */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffBaseline, evalKey, formatBaseline, formatReport, formatSummary, parseBaseline } from './baseline.js';
import { embeddedEngineDeps } from './embedded.js';
import { runScriptText, type EvalRecord } from './runner.js';
import { upstreamSkipReason } from './skips.js';
import { UPSTREAM_DIR_FROM_REPO, loadUpstreamSuite, upstreamPresent } from './upstream.js';

/**
 * Prometheus' own promqltest scripts (v3.14), read in place from ../shared/conformance/promqltest
 * and verified against SHA256SUMS. The run fails only when an eval listed in baseline.txt stops
 * passing; evals that never passed are reported, not failed. See README.md.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const upstreamDir = join(repoRoot, UPSTREAM_DIR_FROM_REPO);
const baselinePath = fileURLToPath(new URL('./baseline.txt', import.meta.url));
const reportPath = join(repoRoot, '.tmp', 'promqltest-report.txt');
const updating = process.env.UPDATE_PROMQLTEST_BASELINE === '1';

describe('promqltest: upstream Prometheus v3.14 scripts', () => {
  if (!upstreamPresent(upstreamDir)) {
    const reason = `upstream promqltest files not found at ${upstreamDir}`;
    if (process.env.CI === 'true') {
      it('finds the upstream files', () => {
        expect.fail(`${reason} (CI=true: missing conformance data is a failure)`);
      });
    } else {
      console.log(`promqltest: skipped: ${reason}`);
      it.skip(reason, () => undefined);
    }
    return;
  }
  // Throws (failing the whole file) when a file differs from SHA256SUMS.
  const suite = loadUpstreamSuite(upstreamDir);
  const records: EvalRecord[] = [];
  const ran = new Set<string>();

  it.each(suite.files.map((f) => f.name))(
    '%s',
    async (name) => {
      const file = suite.files.find((f) => f.name === name)!;
      const skip = (line: number): string | null => upstreamSkipReason(name, line, suite.index.get(`${name}:${line}`)?.nativeHistogram);
      records.push(...(await runScriptText(name, file.text, embeddedEngineDeps(), { skip: (cmd) => skip(cmd.line) })));
      ran.add(name);
    },
    600_000,
  );

  it('keeps every eval of baseline.txt passing', () => {
    console.log(formatSummary(records));
    console.log(`promqltest: ${records.filter((r) => r.lenientPass).length} failures pass with lenient msg:/regex: matching`);
    mkdirSync(join(repoRoot, '.tmp'), { recursive: true });
    writeFileSync(reportPath, formatReport(records));
    console.log(`promqltest: report with every failure: ${reportPath}`);
    if (updating) {
      expect(ran.size, 'update the baseline from a run of every file').toBe(suite.files.length);
      writeFileSync(baselinePath, formatBaseline(records));
      console.log(`promqltest: baseline written to ${baselinePath}`);
      return;
    }
    const baseline = [...parseBaseline(readFileSync(baselinePath, 'utf8'))].filter((k) => ran.has(k.slice(0, k.lastIndexOf(':'))));
    const { regressions, newlyPassing } = diffBaseline(records, new Set(baseline));
    if (newlyPassing.length > 0) {
      console.log(`promqltest: ${newlyPassing.length} evals pass that baseline.txt does not list yet; run UPDATE_PROMQLTEST_BASELINE=1 npx vitest run src/promql/promqltest`);
    }
    const byKey = new Map(records.map((r) => [evalKey(r), r]));
    const detail = regressions.map((k) => `${k} ${byKey.get(k)?.expr ?? '(no such eval)'}\n  ${byKey.get(k)?.status ?? 'missing'}: ${byKey.get(k)?.reason ?? ''}`);
    expect(regressions, `evals in baseline.txt that no longer pass:\n${detail.join('\n')}`).toEqual([]);
  });
});
