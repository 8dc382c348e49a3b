import { parsePromDuration } from '../../config/index.js';
import type { DurationMs } from '../../model/index.js';
import type { Position } from '../types.js';
import type { RuleFileError } from './errors.js';
import { DecodeContext, YamlAbort, type ParsedDocument, type V3Node } from './yaml-v3.js';

/**
 * The two decoding passes of Prometheus' `rulefmt.Parse`, on our yaml.v3 view: the first reads
 * the groups with unknown fields refused (yaml.v3's `KnownFields`), the second reads `groups` as
 * raw nodes for their positions. Both report their own errors, so a syntax error or a top level
 * of the wrong kind is printed twice, as promtool does. Validation is `validate.ts`.
 */

/** A scalar field as written, with its position; missing fields are undefined (promtool's `0:0`). */
export interface RawField {
  readonly value: string;
  readonly at: Position;
}

/** A `map[string]string` entry (labels, annotations) with its key's position. */
export interface RawEntry {
  readonly key: string;
  readonly value: string;
  readonly at: Position;
}

/** A rule as decoded, before validation (Prometheus' `rulefmt.RuleNode`). */
export interface RawRule {
  readonly at: Position;
  record?: RawField;
  alert?: RawField;
  expr?: RawField;
  forMs: DurationMs;
  keepFiringForMs: DurationMs;
  labels: RawEntry[];
  annotations: RawEntry[];
}

/** A group as decoded, before validation. */
export interface RawGroup {
  readonly at: Position;
  name: string;
  intervalMs: DurationMs;
  queryOffsetMs: DurationMs | undefined;
  limit: number;
  rules: RawRule[];
}

const GROUPS_TYPE = 'rulefmt.RuleGroups';
const GROUP_TYPE = 'rulefmt.RuleGroup';
const RULE_TYPE = 'rulefmt.RuleNode';

/** yaml.v3 decoding a scalar into a Go string: any scalar is fine, null leaves it empty. */
function str(n: V3Node): string {
  if (n.isNull) return '';
  if (n.tag === '!!map' || n.tag === '!!seq') {
    n.typeError('string');
    return '';
  }
  return n.value;
}

/** A `model.Duration`: decoded as a string first, then parsed; a bad one stops the whole pass as in Go. */
function duration(n: V3Node): DurationMs {
  if (n.isNull) return 0;
  if (n.tag === '!!map' || n.tag === '!!seq') {
    n.typeError('string');
    return 0;
  }
  try {
    return parsePromDuration(str(n));
  } catch (e) {
    throw new YamlAbort((e as Error).message, n.at);
  }
}

/** yaml.v3 decoding into a Go int: ints, and floats truncated; anything else is a type error. */
function int(n: V3Node): number {
  if (n.isNull) return 0;
  if (n.tag === '!!int' || n.tag === '!!float') {
    const v = Number((n.node as { value: unknown }).value);
    if (Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return Math.trunc(v);
  }
  n.typeError('int');
  return 0;
}

/** A `map[string]string`; a null value is the empty string, as in yaml.v3. */
function stringMap(n: V3Node): RawEntry[] {
  const out: RawEntry[] = [];
  for (const [k, v] of n.pairs('map[string]string') ?? []) {
    const key = str(k);
    if (v.isNull) out.push({ key, value: '', at: k.at });
    else if (v.tag === '!!map' || v.tag === '!!seq') v.typeError('string');
    else out.push({ key, value: str(v), at: k.at });
  }
  return out;
}

/** yaml.v3's `yaml.Node` field: any node is taken as it is; its `Value` is '' unless it is a scalar. */
function nodeField(n: V3Node): RawField {
  return { value: n.nodeValue, at: n.at };
}

function decodeRule(n: V3Node): RawRule | undefined {
  const pairs = n.pairs(RULE_TYPE);
  if (pairs === undefined) return undefined;
  const r: RawRule = { at: n.at, forMs: 0, keepFiringForMs: 0, labels: [], annotations: [] };
  for (const [k, v] of pairs) {
    const key = str(k);
    if (key === 'record') r.record = nodeField(v);
    else if (key === 'alert') r.alert = nodeField(v);
    else if (key === 'expr') r.expr = nodeField(v);
    else if (key === 'for') r.forMs = duration(v);
    else if (key === 'keep_firing_for') r.keepFiringForMs = duration(v);
    else if (key === 'labels') r.labels = stringMap(v);
    else if (key === 'annotations') r.annotations = stringMap(v);
    else k.error(`field ${key} not found in type ${RULE_TYPE}`);
  }
  return r;
}

function decodeGroup(n: V3Node): RawGroup | undefined {
  const pairs = n.pairs(GROUP_TYPE);
  if (pairs === undefined) return undefined;
  const g: RawGroup = { at: n.at, name: '', intervalMs: 0, queryOffsetMs: undefined, limit: 0, rules: [] };
  for (const [k, v] of pairs) {
    const key = str(k);
    if (key === 'name') g.name = str(v);
    else if (key === 'interval') g.intervalMs = duration(v);
    // Prometheus 3.x's field; 2.42 refuses it (docs/rules.md).
    else if (key === 'query_offset') g.queryOffsetMs = v.isNull ? undefined : duration(v);
    else if (key === 'limit') g.limit = int(v);
    else if (key === 'rules') {
      // A null rule, like a null group, is dropped by yaml.v3 without a word.
      for (const item of v.items(`[]${RULE_TYPE}`) ?? []) {
        const rule = item.isNull ? undefined : decodeRule(item);
        if (rule !== undefined) g.rules.push(rule);
      }
    } else k.error(`field ${key} not found in type ${GROUP_TYPE}`);
  }
  return g;
}

function typeErrors(ctx: DecodeContext, pass: 1 | 2): RuleFileError[] {
  return ctx.typeErrors.map((e) => ({ message: e.message, at: e.at, unmarshalPass: pass }));
}

/** The first pass: the groups, or the errors promtool prints for it. */
export function decodeGroups(doc: ParsedDocument): { groups: RawGroup[]; errors: RuleFileError[] } {
  const ctx = new DecodeContext(doc);
  const groups: RawGroup[] = [];
  try {
    for (const [k, v] of ctx.root().pairs(GROUPS_TYPE) ?? []) {
      const key = str(k);
      if (key !== 'groups') {
        k.error(`field ${key} not found in type ${GROUPS_TYPE}`);
        continue;
      }
      for (const item of v.items(`[]${GROUP_TYPE}`) ?? []) {
        const g = item.isNull ? undefined : decodeGroup(item);
        if (g !== undefined) groups.push(g);
      }
    }
  } catch (e) {
    // A failed custom unmarshaler (a bad duration) ends yaml.v3's decoding with that error alone.
    if (e instanceof YamlAbort) return { groups: [], errors: [{ message: e.message, at: e.at }] };
    throw e;
  }
  return { groups, errors: typeErrors(ctx, 1) };
}

/** The second pass: the position of every item of `groups` (nulls included, as Go indexes them), or its errors. */
export function decodeGroupPositions(doc: ParsedDocument): { positions: Position[]; errors: RuleFileError[] } {
  const ctx = new DecodeContext(doc);
  const positions: Position[] = [];
  try {
    for (const [k, v] of ctx.root().pairs('rulefmt.ruleGroups') ?? []) {
      if (str(k) !== 'groups') continue;
      for (const item of v.items('[]yaml.Node') ?? []) positions.push(item.at);
    }
  } catch (e) {
    if (e instanceof YamlAbort) return { positions, errors: [{ message: e.message, at: e.at }] };
    throw e;
  }
  return { positions, errors: typeErrors(ctx, 2) };
}
