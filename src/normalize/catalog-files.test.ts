// Checks of the catalog (src/semconv) against files on disk. They live here, not in src/semconv,
// because semconv also runs in the browser and may not import Node builtins, tests included
// (scripts/check-deps.mjs); normalize is the catalog's Node-side consumer.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, DROPPED_METRICS, SOURCES, renderMetricsDoc, type MetricDef, type SourceMetric } from '../semconv/index.js';

const repoRoot = new URL('../../', import.meta.url);
const tsvUrl = new URL('../shared/reference/engine-metrics.tsv', repoRoot);
const tsvPresent = existsSync(tsvUrl);
const inCi = process.env.CI === 'true';

/**
 * Engine metric names per TSV source. The metric column sometimes lists several names
 * (`a / b`, `x, _suffix`): a name starting with `_` is completed with every prefix of the first
 * full name in the cell that ends before an underscore.
 */
function tsvNames(text: string): { names: Map<string, Set<string>>; types: Map<string, string>; rows: Map<string, string> } {
  const names = new Map<string, Set<string>>();
  const types = new Map<string, string>();
  const rows = new Map<string, string>();
  for (const line of text.split('\n').slice(1)) {
    const [source, metric, type] = line.split('\t');
    rows.set(metric, line);
    if (metric === undefined) continue;
    const tokens = metric.match(/[A-Za-z_:][A-Za-z0-9_:.]*/g) ?? [];
    const first = tokens.find((t) => !t.startsWith('_') && t !== 'others') ?? '';
    const set = names.get(source) ?? new Set<string>();
    names.set(source, set);
    for (const t of tokens) {
      if (!t.startsWith('_')) set.add(t);
      else for (let k = first.indexOf('_'); k > 0; k = first.indexOf('_', k + 1)) set.add(first.slice(0, k) + t);
    }
    types.set(`${source}\t${metric}`, type);
  }
  return { names, types, rows };
}

/** Source metrics whose name the TSV records under another source, with why. */
const CROSS_SOURCE: Readonly<Record<string, string>> = {
  // SageMaker AI Insights forwards DCGM's SM-active field under this spelling.
  DCGM_FI_DEV_SM_ACTIVE: 'sagemaker-insights-otel',
};

/** Names the TSV gives only in a row's meaning or notes, as another spelling of its metric. */
const ALTERNATE_SPELLINGS: Readonly<Record<string, string>> = {
  // Row RESPONSE_4_XX (README spelling): "docs.djl.ai page shows Response_4XX".
  Response_4XX: 'RESPONSE_4_XX',
};

const rows: [string, MetricDef | undefined, SourceMetric][] = [
  ...CATALOG.flatMap((m) => m.sources.map((s): [string, MetricDef, SourceMetric] => [`${m.name} ← ${s.source} ${s.metric}`, m, s])),
  // The metrics left out on purpose must name real engine metrics too.
  ...DROPPED_METRICS.map((s): [string, undefined, SourceMetric] => [`dropped ← ${s.source} ${s.metric}`, undefined, s]),
];

describe('the catalog against shared/reference/engine-metrics.tsv', () => {
  it('finds the reference in CI', () => {
    expect(tsvPresent || !inCi, `${tsvUrl.pathname} is missing and CI=true`).toBe(true);
  });

  describe.skipIf(!tsvPresent)('every source metric (skipped when the TSV is absent outside CI)', () => {
    const tsv = tsvPresent ? tsvNames(readFileSync(tsvUrl, 'utf8')) : undefined;
    const { names, types, rows: tsvRows } = tsv ?? { names: new Map<string, Set<string>>(), types: new Map<string, string>(), rows: new Map<string, string>() };

    it.each(rows)('%s exists in the TSV with the same type', (_what, _m, s) => {
      const tsvSource = CROSS_SOURCE[s.metric] ?? SOURCES[s.source].tsvSource;
      const alternateOf = ALTERNATE_SPELLINGS[s.metric] as string | undefined;
      if (alternateOf !== undefined) {
        expect(tsvRows.get(alternateOf)).toContain(s.metric);
        return;
      }
      expect(names.get(tsvSource)?.has(s.metric), `${s.metric} not among the ${tsvSource} rows`).toBe(true);
      const type = types.get(`${tsvSource}\t${s.metric}`);
      const declared = type?.match(/^(counter|gauge|histogram|summary)\b/)?.[1];
      if (declared !== undefined) expect(s.type).toBe(declared);
    });
  });
});

describe('docs/metrics.md', () => {
  it('is what scripts/gen-metrics-doc.ts generates (run `npm run gen-metrics-doc`)', () => {
    const committed = readFileSync(new URL('docs/metrics.md', repoRoot), 'utf8');
    expect(committed === renderMetricsDoc(), 'docs/metrics.md is stale: run `npm run gen-metrics-doc`').toBe(true);
  });
});
