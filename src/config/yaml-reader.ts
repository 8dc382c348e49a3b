import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Pair } from 'yaml';
import type { DurationMs } from '../model/index.js';
import { parsePromDuration } from './duration.js';
import { MAX_YAML_DEPTH, yamlNestingDepth } from './yaml-depth.js';

/** An invalid configuration; the message names the line and the field, and keeps Prometheus' wording. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** How yaml.v2 (which Prometheus uses) names a node's kind in its type errors. */
function kindTag(node: unknown): string {
  if (isMap(node)) return '!!map';
  if (isSeq(node)) return '!!seq';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return '!!null';
    if (typeof v === 'boolean') return '!!bool';
    if (typeof v === 'number') return Number.isInteger(v) ? '!!int' : '!!float';
    return '!!str';
  }
  return '!!unknown';
}

/** A map key's text; YAML 1.1 merge keys (a `Symbol(<<)` value) read as `<<`. */
function keyText(p: Pair): string {
  const k = p.key;
  if (!isScalar(k)) return '';
  return typeof k.value === 'symbol' ? (k.source ?? '<<') : String(k.value);
}

/**
 * One node of a parsed YAML document while it is read into a typed configuration: every accessor
 * checks the node's kind and throws a `ConfigError` that names the line and the field path
 * (`scrape_configs[0].scrape_interval`). Aliases are resolved; `<<` merge keys are honoured.
 */
export class YamlNode {
  /** @internal Use `parseYamlDocument`. */
  constructor(
    private readonly doc: Document,
    private readonly lc: LineCounter,
    readonly node: unknown,
    readonly path: string,
  ) {}

  /** The 1-based line the node starts on (0 when unknown). */
  get line(): number {
    const range = (this.node as { range?: [number, number, number] } | null)?.range;
    return range === undefined ? 0 : this.lc.linePos(range[0]).line;
  }

  /** Throws a `ConfigError` at this node: `line L: path: message`. */
  fail(message: string): never {
    const where = this.path === '' ? '' : `${this.path}: `;
    throw new ConfigError(`line ${this.line}: ${where}${message}`);
  }

  /** True for a missing value, `~` or `null`. */
  isNull(): boolean {
    return this.node === null || this.node === undefined || (isScalar(this.node) && this.node.value === null);
  }

  private child(node: unknown, path: string): YamlNode {
    let n = node;
    for (let i = 0; i < 16 && isAlias(n); i++) n = n.resolve(this.doc);
    return new YamlNode(this.doc, this.lc, n, path);
  }

  private typeError(into: string): never {
    const n = this.node;
    const shown = isScalar(n) && n.value !== null ? ` \`${n.source ?? JSON.stringify(n.value)}\`` : '';
    this.fail(`cannot unmarshal ${kindTag(n)}${shown} into ${into}`);
  }

  /** A string field; plain scalars keep their source text (`0x10` stays `0x10`), null is ''. */
  string(): string {
    if (this.isNull()) return '';
    const n = this.node;
    if (!isScalar(n)) this.typeError('string');
    if (typeof n.value === 'string') return n.value;
    return n.source ?? String(n.value);
  }

  /** A boolean field (YAML 1.1 spellings, as yaml.v2). */
  bool(): boolean {
    const n = this.node;
    if (isScalar(n) && typeof n.value === 'boolean') return n.value;
    this.typeError('bool');
  }

  /** A non-negative integer field. */
  uint(): number {
    const n = this.node;
    if (isScalar(n) && typeof n.value === 'number' && Number.isSafeInteger(n.value) && n.value >= 0) return n.value;
    this.typeError('uint');
  }

  /** A Prometheus duration field (`30s`, `1m30s`). */
  duration(): DurationMs {
    const text = this.string();
    try {
      return parsePromDuration(text);
    } catch (e) {
      this.fail((e as Error).message);
    }
  }

  /** A sequence field; null is the empty list. */
  list(): YamlNode[] {
    if (this.isNull()) return [];
    const n = this.node;
    if (!isSeq(n)) this.typeError('[]');
    return n.items.map((item, i) => this.child(item, `${this.path}[${i}]`));
  }

  /** A list of strings. */
  stringList(): string[] {
    return this.list().map((n) => n.string());
  }

  private pairs(): Pair[] {
    const n = this.node;
    if (!isMap(n)) this.typeError('map');
    const out: Pair[] = [];
    const seen = new Set<string>();
    const merged: Pair[] = [];
    for (const p of n.items) {
      const key = keyText(p);
      if (key === '<<') {
        const src = this.child(p.value, this.path);
        for (const m of isSeq(src.node) ? src.list() : [src]) merged.push(...m.pairs());
        continue;
      }
      seen.add(key);
      out.push(p);
    }
    for (const p of merged) {
      const key = keyText(p);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(p);
      }
    }
    return out;
  }

  /**
   * A struct: returns its fields by name. A key not in `fields` fails as yaml.v2's strict mode
   * does (`field foo not found in type config.ScrapeConfig`). Null is the empty struct.
   */
  struct(typeName: string, fields: readonly string[]): Partial<Record<string, YamlNode>> {
    const out: Partial<Record<string, YamlNode>> = {};
    if (this.isNull()) return out;
    for (const p of this.pairs()) {
      const key = this.child(p.key, this.path).string();
      const at = this.child(p.value, this.path === '' ? key : `${this.path}.${key}`);
      if (!fields.includes(key)) {
        const keyNode = this.child(p.key, at.path);
        throw new ConfigError(`line ${keyNode.line}: field ${key} not found in type ${typeName}`);
      }
      out[key] = at;
    }
    return out;
  }

  /** A map with free-form keys (labels, params): `[key, value node]` in document order. */
  entries(): [string, YamlNode][] {
    if (this.isNull()) return [];
    return this.pairs().map((p) => {
      const key = this.child(p.key, this.path).string();
      return [key, this.child(p.value, `${this.path}.${key}`)];
    });
  }
}

/**
 * Parses YAML text (YAML 1.1, as Prometheus' yaml.v2) into the root `YamlNode`. Syntax errors and
 * duplicate keys throw a `ConfigError` with the line.
 */
export function parseYamlDocument(text: string): YamlNode {
  // The parser recurses per level: refuse a hostile depth before it runs (yaml-depth.ts).
  if (yamlNestingDepth(text) > MAX_YAML_DEPTH) throw new ConfigError(`yaml: nested deeper than ${MAX_YAML_DEPTH} levels`);
  const lc = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const err = doc.errors.at(0);
  if (err !== undefined) {
    const line = lc.linePos(err.pos[0]).line;
    throw new ConfigError(`line ${line}: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  return new YamlNode(doc, lc, doc.contents, '');
}
