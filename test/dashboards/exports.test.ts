// The Grafana export in docs/dashboards/ (scripts/dashboard-exports.ts): every file is committed as
// `npm run gen-dashboards` writes it, the folder holds nothing else, `--check` finds stale and
// missing files, and the rule file beside the dashboards records every series they read that no
// exporter writes (the SLO panels' `slo:*`), so the export is complete without Infersight.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DASHBOARDS, builtinIntervals, dashboardPanels, defaultValues, familyName, interpolate, panelQueries } from '../../src/dashboards/index.js';
import { parseExpr, walkExpr } from '../../src/promql/index.js';
import { RULE_PACK_FILE, rulePackYaml } from '../../src/rules/index.js';
import { catalogMetric } from '../../src/semconv/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { dashboardExports, staleExports, type ExportFile } from '../../scripts/dashboard-exports.js';

const DIR = new URL('../../docs/dashboards/', import.meta.url);
const files = dashboardExports();
/** Hand-written files the folder may hold besides the generated ones. */
const HAND_WRITTEN = ['README.md'];

describe('docs/dashboards', () => {
  it('has every export file as scripts/gen-dashboards.ts writes it (run `npm run gen-dashboards`)', () => {
    expect(staleExports(DIR, files), 'stale: run `npm run gen-dashboards`').toEqual([]);
  });

  it('holds the dashboards, the rule pack and nothing else (a removed dashboard leaves no file behind)', () => {
    expect(files.map((f) => f.name)).toEqual([...DASHBOARDS.map((d) => `${d.id}.grafana.json`), RULE_PACK_FILE]);
    expect(readdirSync(DIR).sort()).toEqual([...files.map((f) => f.name), ...HAND_WRITTEN].sort());
  });

  it('carries the pack generated once, the text of docs/rules/ too', () => {
    expect(files.find((f) => f.name === RULE_PACK_FILE)?.text).toBe(rulePackYaml());
  });
});

describe('staleExports (gen-dashboards --check)', () => {
  const t = tempDir('dashboard-exports');
  const dir = pathToFileURL(`${t.dir}/`);
  afterAll(() => t.remove());
  const set: readonly ExportFile[] = [
    { name: 'a.grafana.json', text: '{}\n' },
    { name: 'p.rules.yml', text: 'groups: []\n' },
  ];

  it.each<[string, Record<string, string>, string[]]>([
    // [case, files on disk, stale names]
    ['all current', { 'a.grafana.json': '{}\n', 'p.rules.yml': 'groups: []\n' }, []],
    ['one edited by hand', { 'a.grafana.json': '{}\n', 'p.rules.yml': 'groups: [] # edited\n' }, ['p.rules.yml']],
    ['one missing', { 'a.grafana.json': '{}\n' }, ['p.rules.yml']],
    ['a trailing newline lost', { 'a.grafana.json': '{}', 'p.rules.yml': 'groups: []\n' }, ['a.grafana.json']],
  ])('%s', (name, onDisk, stale) => {
    const sub = new URL(`${name.replace(/ /g, '-')}/`, dir);
    mkdirSync(sub);
    for (const [f, text] of Object.entries(onDisk)) writeFileSync(new URL(f, sub), text);
    expect(staleExports(sub, set)).toEqual(stale);
  });
});

describe('the exported rule file completes the exported dashboards', () => {
  const pack = files.find((f) => f.name === RULE_PACK_FILE)!;
  const doc = parse(pack.text) as { groups: { rules: { record?: string }[] }[] };
  const recorded = new Set(doc.groups.flatMap((g) => g.rules.flatMap((r) => (r.record === undefined ? [] : [r.record]))));
  const builtins = builtinIntervals({ rangeMs: 3_600_000, stepMs: 15_000 });

  /** Every series name a dashboard selects that neither the catalog nor Prometheus (`up`) provides. */
  function derivedSeries(): Map<string, string> {
    const out = new Map<string, string>();
    for (const d of DASHBOARDS) {
      for (const p of dashboardPanels(d)) {
        for (const q of panelQueries(p)) {
          walkExpr(parseExpr(interpolate(q.expr, defaultValues(d), { variables: d.variables, ...builtins })), (n) => {
            if (n.type === 'VectorSelector' && n.name !== 'up' && catalogMetric(familyName(n.name)) === undefined) out.set(n.name, `${d.id}/${p.id}/${q.refId}`);
          });
        }
      }
    }
    return out;
  }

  it('reads at least the SLO series (the test can fail)', () => {
    expect([...derivedSeries().keys()]).toContain('slo:error_budget_remaining:ratio');
  });

  it('records every one of them', () => {
    const missing = [...derivedSeries()].filter(([name]) => !recorded.has(name)).map(([name, where]) => `${name} (${where})`);
    expect(missing).toEqual([]);
  });
});

