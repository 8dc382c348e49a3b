// The files of the Grafana export (docs/dashboards/): each built-in dashboard as Grafana JSON and,
// beside them, the default rule pack as a Prometheus rule file, because the dashboards' SLO and
// error-budget panels read series that only the pack's recording rules write. Used by
// scripts/gen-dashboards.ts and by test/dashboards/exports.test.ts (which fails on a stale file).
import { readFileSync } from 'node:fs';
import { DASHBOARDS, grafanaJson } from '../src/dashboards/index.js';
import { RULE_PACK_FILE, rulePackYaml } from '../src/rules/index.js';

/** One exported file: its name inside the export folder and its text. */
export interface ExportFile {
  readonly name: string;
  readonly text: string;
}

/** Every file of the export, dashboards first, in a fixed order. */
export function dashboardExports(): ExportFile[] {
  return [...DASHBOARDS.map((d) => ({ name: `${d.id}.grafana.json`, text: grafanaJson(d) })), { name: RULE_PACK_FILE, text: rulePackYaml() }];
}

/** The names of the export files that `dir` lacks or holds with other text (a missing file counts as stale). */
export function staleExports(dir: URL, files: readonly ExportFile[] = dashboardExports()): string[] {
  return files
    .filter((f) => {
      try {
        return readFileSync(new URL(f.name, dir), 'utf8') !== f.text;
      } catch {
        return true;
      }
    })
    .map((f) => f.name);
}
