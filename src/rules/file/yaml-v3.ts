import { LineCounter, isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Alias, type Document, type Node as YNode } from 'yaml';
import { MAX_YAML_DEPTH, yamlNestingDepth } from '../../config/index.js';
import type { Position } from '../types.js';

/**
 * The part of Go's yaml.v3 that Prometheus' rule files go through (`rulefmt.Parse` decodes with
 * yaml.v3, not the yaml.v2 of the main configuration; docs/design/rule-files.md says why that
 * matters): a node view with 1-based line and column, yaml.v3's tag names, and a decoder state
 * that collects type errors instead of stopping at the first, as yaml.v3's `unmarshal errors`
 * block does. Nothing here descends deeper than the rule-file schema, so a deeply nested value
 * costs one type error, never a deep recursion.
 */

/** yaml.v3's parser refuses documents nested deeper than this. */
export const YAML_V3_MAX_DEPTH = 10_000;

/**
 * We refuse documents nested deeper than this, before parsing: the `yaml` package composes
 * recursively and runs out of stack well before yaml.v3's limit (rule files nest about six deep).
 */
export const MAX_DEPTH = MAX_YAML_DEPTH;

/** A YAML failure that stops decoding at once (syntax, encoding, depth, aliasing); the message is yaml.v3's where we know it. */
export class YamlAbort extends Error {
  constructor(
    message: string,
    readonly at: Position,
  ) {
    super(message);
  }
}

/** One collected yaml.v3 type error (`line 3: field foo not found in type rulefmt.RuleNode`). */
export interface TypeErrorEntry {
  readonly message: string;
  readonly at: Position;
}

const NO_POSITION: Position = { line: 0, column: 0 };

/** The most repeated-key errors one mapping reports. */
const MAX_REPEAT_ERRORS = 1000;

/**
 * A node of the first document as one yaml.v3 decoding pass meets it. An alias is resolved only
 * when the node is decoded (its tag, value, items or pairs are read), and each node decoded within
 * an alias counts against yaml.v3's aliasing guard; a node taken raw (`nodeValue`, `at`), as
 * yaml.v3 stores a `yaml.Node` field, resolves nothing.
 */
export class V3Node {
  private resolved: YNode | null | undefined;

  /** @internal Made by `DecodeContext` and the accessors. */
  constructor(
    private readonly ctx: DecodeContext,
    private readonly raw: YNode | null,
    /** The position yaml.v3 gives the node (an alias's own position, not its anchor's). */
    readonly at: Position,
    private readonly inAlias: boolean,
  ) {}

  /** The anchor name when the node is an alias (`*n` → `n`). */
  get aliasName(): string | undefined {
    return this.raw !== null && isAlias(this.raw) ? this.raw.source : undefined;
  }

  /** The node itself, an alias resolved to its anchored node. */
  get node(): YNode | null {
    if (this.resolved === undefined) this.resolved = this.raw !== null && isAlias(this.raw) ? this.ctx.resolve(this.raw) : this.raw;
    return this.resolved;
  }

  /** yaml.v3's short tag for the node's kind and resolved type. */
  get tag(): string {
    const n = this.node;
    if (n === null) return '!!null';
    if (isMap(n)) return '!!map';
    if (isSeq(n)) return '!!seq';
    if (isScalar(n)) {
      const v = n.value;
      if (v === null) return '!!null';
      if (typeof v === 'boolean') return '!!bool';
      if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) && !/\.|^[-+]?\d+[eE]/.test(n.source ?? '') ? '!!int' : '!!float';
      return '!!str';
    }
    return '!!str';
  }

  /** True for an absent value and for `~`, `null` or nothing at all. */
  get isNull(): boolean {
    return this.tag === '!!null';
  }

  /** A scalar's text as yaml.v3 decodes it into a string (quoted scalars unescaped, plain ones as written); '' for a collection. */
  get value(): string {
    const n = this.node;
    if (n === null || !isScalar(n)) return '';
    if (typeof n.value === 'string') return n.value;
    return n.source ?? String(n.value);
  }

  /** yaml.v3's `Node.Value` of the raw node: the anchor name for an alias, else `value`. */
  get nodeValue(): string {
    return this.aliasName ?? this.value;
  }

  /** Records a yaml.v3 type error at this node: `cannot unmarshal !!seq into string`. */
  typeError(into: string): void {
    const tag = this.tag;
    let shown = '';
    if (tag !== '!!seq' && tag !== '!!map') {
      const v = this.value;
      shown = v.length > 10 ? ` \`${v.slice(0, 7)}...\`` : ` \`${v}\``;
    }
    // Through an alias, yaml.v3 reports the anchored node's line.
    this.ctx.typeError(`cannot unmarshal ${tag}${shown} into ${into}`, this.ctx.positionOf(this.node) ?? this.at);
  }

  /** Records a type error worded by the caller, at this node (unknown fields are reported at their key). */
  error(message: string): void {
    this.ctx.typeError(message, this.at);
  }

  private child(n: unknown): V3Node {
    return this.ctx.wrap((n ?? null) as YNode | null, this.inAlias || this.aliasName !== undefined);
  }

  /** The items of a sequence (null: none); anything else records a type error and yields undefined. */
  items(into: string): V3Node[] | undefined {
    if (this.isNull) return [];
    const n = this.node;
    if (n === null || !isSeq(n)) {
      this.typeError(into);
      return undefined;
    }
    return n.items.map((item) => this.child(item));
  }

  /**
   * yaml.v3's unique-key check: for every two equal keys, in the order of its double loop (first
   * key, then second), `mapping key "x" already defined at line N`. Keys are grouped first, so a
   * large mapping costs linear time, and the errors stop at `MAX_REPEAT_ERRORS` where yaml.v3's
   * would grow with the square of the repeats.
   */
  private repeatedKeys(keys: readonly V3Node[]): boolean {
    const byKey = new Map<string, number[]>();
    keys.forEach((k, i) => {
      const id = `${k.tag} ${k.value}`;
      const seen = byKey.get(id);
      if (seen === undefined) byKey.set(id, [i]);
      else seen.push(i);
    });
    // For each key, its group of equal keys and its place there.
    const place: { group: number[]; at: number }[] = [];
    let repeated = false;
    for (const group of byKey.values()) {
      if (group.length > 1) repeated = true;
      group.forEach((i, at) => (place[i] = { group, at }));
    }
    if (!repeated) return false;
    let errors = 0;
    for (let i = 0; i < keys.length; i++) {
      const { group, at } = place[i];
      for (let b = at + 1; b < group.length; b++) {
        if (errors++ === MAX_REPEAT_ERRORS) return true;
        const j = group[b];
        // yaml.v3 prints the key with Go's %#v; JSON's quoting is the same for printable text.
        this.ctx.typeError(`mapping key ${JSON.stringify(keys[j].value)} already defined at line ${keys[i].at.line}`, keys[j].at);
      }
    }
    return true;
  }

  /**
   * The key/value pairs of a mapping in document order, `<<` merge keys expanded as yaml.v3 does
   * (keys written in the mapping win over merged ones wherever they stand; of several merged
   * maps, the first wins). A repeated key records yaml.v3's `mapping key "x" already defined at
   * line N` for each repeat and yields undefined, as yaml.v3 then skips the whole mapping;
   * anything but a mapping records a type error.
   */
  pairs(into: string): [V3Node, V3Node][] | undefined {
    if (this.isNull) return [];
    const n = this.node;
    if (n === null || !isMap(n)) {
      this.typeError(into);
      return undefined;
    }
    const all = n.items.map((p): [V3Node, V3Node] => [this.child(p.key), this.child(p.value)]);
    const isMerge = (k: V3Node): boolean => k.tag === '!!str' && k.value === '<<' && isScalar(k.node) && k.node.type === 'PLAIN';
    const own = all.filter(([k]) => !isMerge(k));
    if (this.repeatedKeys(own.map(([k]) => k))) return undefined;
    if (own.length === all.length) return all;
    const taken = new Set(own.map(([k]) => k.value));
    const out: [V3Node, V3Node][] = [];
    for (const [k, v] of all) {
      if (!isMerge(k)) {
        out.push([k, v]);
        continue;
      }
      const sources = v.tag === '!!seq' ? (v.items(into) ?? []) : [v];
      for (const m of sources) {
        if (m.tag !== '!!map') throw new YamlAbort('yaml: map merge requires map or sequence of maps as the value', m.at);
        for (const pair of m.pairs(into) ?? []) {
          if (taken.has(pair[0].value)) continue;
          taken.add(pair[0].value);
          out.push(pair);
        }
      }
    }
    return out;
  }
}

/**
 * What one decoding pass shares: the collected type errors and yaml.v3's guard against alias
 * expansion (a "billion laughs" document): once the nodes decoded within aliases make up too large
 * a share of all nodes decoded, decoding stops with yaml.v3's `document contains excessive aliasing`.
 */
export class DecodeContext {
  readonly typeErrors: TypeErrorEntry[] = [];
  private decoded = 0;
  private aliased = 0;

  constructor(private readonly parsed: ParsedDocument) {}

  /** The document's root node. */
  root(): V3Node {
    return this.wrap(this.parsed.contents, false);
  }

  /** The 1-based position of a node, or undefined for none. */
  positionOf(n: YNode | null): Position | undefined {
    const range = (n as { range?: [number, number, number] } | null)?.range;
    if (range === undefined) return undefined;
    const { line, col } = this.parsed.lc.linePos(range[0]);
    return { line, column: col };
  }

  /** @internal Wraps a child node; counts it as decoded (within an alias when `inAlias`). */
  wrap(node: YNode | null, inAlias: boolean): V3Node {
    this.count(inAlias);
    return new V3Node(this, node, this.positionOf(node) ?? NO_POSITION, inAlias);
  }

  /** @internal Resolves an alias; its anchored node is decoded within the alias. */
  resolve(alias: Alias): YNode | null {
    this.count(true);
    return this.parsed.doc === undefined ? null : (alias.resolve(this.parsed.doc) ?? null);
  }

  typeError(message: string, at: Position): void {
    this.typeErrors.push({ message, at });
  }

  // yaml.v3's decoder: every node decoded counts, those within an alias count twice over; its
  // allowedAliasRatio is generous for small documents and falls to 10% for huge ones.
  private count(inAlias: boolean): void {
    this.decoded++;
    if (inAlias) this.aliased++;
    if (this.aliased <= 100 || this.decoded <= 1000) return;
    const d = this.decoded;
    const allowed = d <= 400_000 ? 0.99 : d >= 4_000_000 ? 0.1 : 0.99 - (0.89 * (d - 400_000)) / 3_600_000;
    if (this.aliased / d > allowed) throw new YamlAbort('yaml: document contains excessive aliasing', NO_POSITION);
  }
}

/** yaml.v3's reader's `is_printable`: the code points a document may hold. */
const printable = (cp: number): boolean =>
  cp === 0x09 || cp === 0x0a || cp === 0x0d || (cp >= 0x20 && cp <= 0x7e) || cp === 0x85 || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

/**
 * yaml.v3's reader, character by character: the first bad UTF-8 sequence or unprintable
 * character ends the document with its words. Returns the decoded text, or throws.
 */
function readCharacters(source: string | Uint8Array): string {
  const fail = (problem: string): never => {
    throw new YamlAbort(`yaml: ${problem}`, NO_POSITION);
  };
  if (typeof source === 'string') {
    for (const ch of source) if (!printable(ch.codePointAt(0) ?? 0)) fail('control characters are not allowed');
    return source;
  }
  const b = source;
  let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  for (; i < b.length; ) {
    const lead = b[i];
    const width = (lead & 0x80) === 0 ? 1 : (lead & 0xe0) === 0xc0 ? 2 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf8) === 0xf0 ? 4 : 0;
    if (width === 0) fail('invalid leading UTF-8 octet');
    if (i + width > b.length) fail('incomplete UTF-8 octet sequence');
    let cp = width === 1 ? lead : width === 2 ? lead & 0x1f : width === 3 ? lead & 0x0f : lead & 0x07;
    for (let k = 1; k < width; k++) {
      if ((b[i + k] & 0xc0) !== 0x80) fail('invalid trailing UTF-8 octet');
      cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    if (!(width === 1 || (width === 2 && cp >= 0x80) || (width === 3 && cp >= 0x800) || (width === 4 && cp >= 0x10000))) fail('invalid length of a UTF-8 sequence');
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) fail('invalid Unicode character');
    if (!printable(cp)) fail('control characters are not allowed');
    i += width;
  }
  return new TextDecoder('utf-8').decode(source);
}

/** The wording yaml.v3 uses for the syntax errors people actually make, by the `yaml` package's code. */
const SYNTAX_WORDING: Partial<Record<string, string>> = {
  TAB_AS_INDENT: 'found character that cannot start any token',
};

/** A parsed first document, ready for any number of decoding passes (`new DecodeContext(parsed)`). */
export interface ParsedDocument {
  readonly doc: Document | undefined;
  readonly lc: LineCounter;
  readonly contents: YNode | null;
}

/**
 * Parses the first document of `source` (yaml.v3 reads only the first; later ones are ignored).
 * Bytes are read as yaml.v3's reader does (strict UTF-8, printable characters only). Syntax, encoding and depth failures throw a `YamlAbort`
 * worded like yaml.v3 where the wording is known (`yaml: control characters are not allowed`,
 * `yaml: exceeded max depth of 10000`; nesting past our own `MAX_DEPTH` is refused too), else `yaml: line N: <the yaml package's message>`.
 * An empty document has null contents.
 */
export function parseV3Document(source: string | Uint8Array): ParsedDocument {
  const text = readCharacters(source);
  const depth = yamlNestingDepth(text);
  if (depth > YAML_V3_MAX_DEPTH) throw new YamlAbort(`yaml: exceeded max depth of ${YAML_V3_MAX_DEPTH}`, NO_POSITION);
  if (depth > MAX_DEPTH) throw new YamlAbort(`yaml: nested deeper than ${MAX_DEPTH} levels (Infersight's limit; yaml.v3's is ${YAML_V3_MAX_DEPTH})`, NO_POSITION);
  const lc = new LineCounter();
  // YAML 1.2's core schema is what yaml.v3 resolves plain scalars with (`yes` is a string).
  let docs;
  try {
    docs = parseAllDocuments(text, { version: '1.2', lineCounter: lc, uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    // Our depth bound should make this unreachable; a stack overflow still ends in an error.
    if (e instanceof RangeError) throw new YamlAbort(`yaml: nested too deeply for Infersight's YAML parser`, NO_POSITION);
    throw e;
  }
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  const err = doc?.errors.at(0);
  if (err !== undefined) {
    const { line, col } = lc.linePos(err.pos[0]);
    const message = SYNTAX_WORDING[err.code] ?? err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new YamlAbort(`yaml: line ${line}: ${message}`, { line, column: col });
  }
  return { doc, lc, contents: doc?.contents ?? null };
}
