import type { RuleGroupSpec, RuleSpec } from '../types.js';
import { decodeGroupPositions, decodeGroups, type RawEntry, type RawGroup } from './decode.js';
import type { RuleFileError } from './errors.js';
import { validateGroups, type RuleFilePorts } from './validate.js';
import { YamlAbort, parseV3Document } from './yaml-v3.js';

/** What `parseRuleFile` returns: the groups of a valid file, or every error promtool would print for it. */
export type ParseRuleFileResult = { readonly ok: true; readonly groups: RuleGroupSpec[] } | { readonly ok: false; readonly errors: RuleFileError[] };

const record = (entries: readonly RawEntry[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const e of entries) out[e.key] = e.value;
  return out;
};

function toSpec(g: RawGroup, file: string): RuleGroupSpec {
  const rules = g.rules.map((r): RuleSpec => {
    const base = { expr: r.expr?.value ?? '', labels: record(r.labels), position: r.at };
    if (r.record !== undefined && r.record.value !== '') return { ...base, kind: 'recording', record: r.record.value };
    return { ...base, kind: 'alerting', alert: r.alert?.value ?? '', forMs: r.forMs, keepFiringForMs: r.keepFiringForMs, annotations: record(r.annotations) };
  });
  return {
    name: g.name,
    file,
    // Prometheus reads an interval of 0 as "use the global evaluation_interval".
    intervalMs: g.intervalMs === 0 ? undefined : g.intervalMs,
    queryOffsetMs: g.queryOffsetMs,
    // Prometheus treats any limit <= 0 as no limit; the spec says that with 0.
    limit: Math.max(0, g.limit),
    rules,
    position: g.at,
  };
}

/**
 * Parses and validates one rule file as Prometheus' `rulefmt.Parse` (2.42) does, plus 3.x's
 * `query_offset`: yaml.v3 decoding with unknown fields refused, then `Validate` with the
 * expression and template parsers from `ports`. `source` is the file's content (bytes are read
 * as strict UTF-8); `file` only labels the groups. Never throws for any input: hostile documents
 * (deep nesting, alias bombs, control characters) end in an error, in time linear in their size.
 */
export function parseRuleFile(source: string | Uint8Array, file: string, ports: RuleFilePorts): ParseRuleFileResult {
  let doc;
  try {
    doc = parseV3Document(source);
  } catch (e) {
    if (!(e instanceof YamlAbort)) throw e;
    // promtool decodes twice and so prints a syntax error twice.
    const err: RuleFileError = { message: e.message, at: e.at };
    return { ok: false, errors: [err, err] };
  }
  const first = decodeGroups(doc);
  const second = decodeGroupPositions(doc);
  const errors = [...first.errors, ...second.errors];
  if (errors.length > 0) return { ok: false, errors };
  const invalid = validateGroups(first.groups, second.positions, ports);
  if (invalid.length > 0) return { ok: false, errors: invalid };
  return { ok: true, groups: first.groups.map((g) => toSpec(g, file)) };
}
