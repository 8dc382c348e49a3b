import { AREA_TITLES, CATALOG, IDENTITY_LABELS } from './catalog.js';
import { DROPPED_METRICS } from './dropped.js';
import { engineRenames, mappingTable } from './mapping.js';
import { CONVERSIONS, SOURCES, SOURCE_IDS } from './sources.js';
import { AREAS, type MetricDef, type SourceMetric } from './types.js';

const code = (s: string): string => `\`${s}\``;
/** Escapes a table cell: pipes would end the cell. */
const cell = (s: string): string => s.replaceAll('|', '\\|');
const labelsText = (r: Readonly<Record<string, string>> | undefined): string =>
  r === undefined ? '' : Object.entries(r).map(([k, v]) => `${k}="${v}"`).join(', ');

function sourceText(s: SourceMetric): string {
  const parts = [`${SOURCES[s.source].id}: ${code(s.metric)}`];
  const conv = CONVERSIONS[s.convert ?? 'none'].text;
  if (conv !== '') parts.push(`(${conv})`);
  if (s.match !== undefined) parts.push(`where ${labelsText(s.match)}`);
  if (s.valueFromLabel !== undefined) parts.push(`value of label ${code(s.valueFromLabel)}`);
  if (s.replacedBy !== undefined) parts.push(s.replacedBy === 'removed' ? '(legacy, removed)' : '(legacy name)');
  return parts.join(' ');
}

function metricRow(m: MetricDef): string {
  const sources = m.sources.length > 0 ? m.sources.map(sourceText).join('<br>') : `written by ${m.producer ?? '?'}`;
  const labels = m.labels.map(code).join(', ');
  return `| ${code(m.name)} | ${m.type} | ${m.unit} | ${labels} | ${m.stability} | ${cell(m.help)} | ${cell(sources)} |`;
}

function catalogSection(): string[] {
  const lines: string[] = [];
  for (const area of AREAS) {
    const metrics = CATALOG.filter((m) => m.area === area);
    lines.push(`## ${AREA_TITLES[area]} (${metrics.length})`, '');
    lines.push('| metric | type | unit | labels | stability | meaning | sources |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const m of metrics) lines.push(metricRow(m));
    lines.push('');
  }
  return lines;
}

function engineSection(): string[] {
  const lines: string[] = ['## Mapping tables by engine', ''];
  lines.push(
    'Each row is one exposed series name (suffix included) and the unified series it becomes. ',
    'Histogram families map member by member: `_bucket` (its `le` rescaled when the unit changes), ',
    '`_sum` (rescaled), `_count` (unchanged). The metrics under "Engine metrics left out on purpose" are ',
    'dropped; anything else not listed passes through unchanged.',
    '',
  );
  for (const id of SOURCE_IDS) {
    const info = SOURCES[id];
    const engine =
      info.engineMode === 'none'
        ? 'no `engine` label is added (an exporter is not an engine)'
        : `\`engine="${info.engineLabel}"\`${info.engineMode === 'if_absent' ? ' when the series has none' : ''}`;
    const renames = info.labelRenames.map((r) => `${code(r.from)} → ${code(r.to)}${r.when === 'integer' ? ' (integer values)' : ''}`);
    const detect = info.needsHint ? 'by hint only (generic names)' : `by prefix ${info.prefixes.map(code).join(', ')}`;
    lines.push(`### ${info.title} (\`${id}\`)`, '');
    lines.push(`Detected ${detect}; ${engine}.${renames.length > 0 ? ` Labels renamed: ${renames.join(', ')}.` : ''}`, '');
    lines.push('| exposed series | unified series | conversion | selector / added labels | note |', '| --- | --- | --- | --- | --- |');
    for (const row of mappingTable(id)) {
      const s = row.sourceMetric;
      const extra = [s.match === undefined ? '' : `where ${labelsText(s.match)}`, labelsText(s.addLabels)];
      if (s.valueFromLabel !== undefined) extra.push(`value from ${code(s.valueFromLabel)}`);
      const text = CONVERSIONS[row.convert].text;
      const conv = row.member === 'count' || text === '' ? '' : row.member === 'bucket' ? `le ${text}` : text;
      const note = [row.needsHint && !info.needsHint ? 'needs hint' : '', s.note ?? ''].filter((x) => x !== '').join('; ');
      lines.push(`| ${code(row.from)} | ${code(row.to)} | ${conv} | ${cell(extra.filter((x) => x !== '').join('; '))} | ${cell(note)} |`);
    }
    lines.push('');
  }
  return lines;
}

function renameSection(): string[] {
  const lines = ['## Renamed and removed engine metrics', '', '| engine | old name | current name | unified | note |', '| --- | --- | --- | --- | --- |'];
  for (const r of engineRenames()) lines.push(`| ${r.source} | ${code(r.from)} | ${r.replacedBy === 'removed' ? 'removed' : code(r.replacedBy)} | ${code(r.unified)} | ${cell(r.note)} |`);
  lines.push('');
  return lines;
}

function droppedSection(): string[] {
  const lines = [
    '## Engine metrics left out on purpose',
    '',
    'The normalizer drops these (`--normalize.keep-raw` keeps them under their engine names): each repeats',
    'a catalog metric or measures nothing about inference. An engine metric that is neither mapped nor',
    'listed here passes through under its own name.',
    '',
    '| engine | metric | type | why |',
    '| --- | --- | --- | --- |',
  ];
  for (const m of DROPPED_METRICS) lines.push(`| ${m.source} | ${code(m.metric)} | ${m.type} | ${cell(m.reason)} |`);
  lines.push('');
  return lines;
}

/** docs/metrics.md, generated from the catalog (`npm run gen-metrics-doc` writes it). */
export function renderMetricsDoc(): string {
  const stable = CATALOG.filter((m) => m.stability === 'stable').length;
  const counts = AREAS.map((a) => `${AREA_TITLES[a]} ${CATALOG.filter((m) => m.area === a).length}`).join(', ');
  const lines = [
    '# Metrics reference',
    '',
    '<!-- Generated by scripts/gen-metrics-doc.ts from src/semconv. Do not edit; run `npm run gen-metrics-doc`. -->',
    '',
    `The unified catalog: ${CATALOG.length} metrics (${stable} stable, ${CATALOG.length - stable} experimental). ${counts}.`,
    '',
    'Infrastructure metrics are `llm_*` and `gpu_*`; answer-quality metrics are `llm_quality_*`. Units are',
    'seconds, bytes and ratios 0–1, and the unit ends the name (before `_total` on counters). The',
    'normalizer (src/normalize) rewrites engine-native series into these names on the way in and adds',
    'an `engine` label naming where a series came from.',
    '',
    `Identity labels, attached from target metadata and allowed on every metric: ${IDENTITY_LABELS.map(code).join(', ')}.`,
    'The labels column lists only what is particular to a metric; engine-specific labels (`dp_rank`,',
    '`tp_rank`, `version`, ...) pass through. Bucket layouts differ between engines: compute',
    'quantiles per engine (`by (le, engine)`), not across engines.',
    '',
    ...catalogSection(),
    ...engineSection(),
    ...renameSection(),
    ...droppedSection(),
  ];
  return lines.join('\n');
}
