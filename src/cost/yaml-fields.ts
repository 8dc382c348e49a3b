/**
 * Reading the cost catalogs' YAML with `path:line:column` errors. src/config's `parseYamlDocument`
 * does the parsing (aliases resolved, duplicate keys and hostile nesting refused) but words its
 * errors `line L: …` for Prometheus' files; the catalogs are edited by hand far from Prometheus, so
 * every error here names the file, the line and the column of the offending node, as a compiler does.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import { ConfigError, parseYamlDocument, type YamlNode } from '../config/index.js';

/** The largest catalog file read (a real one is a few kB; a 10 MB file is a mistake or an attack). */
export const MAX_CATALOG_BYTES = 1 << 20;

/** One catalog file being read: its text, its name, and where each node sits. */
export class CatalogFile {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly text: string,
    readonly path: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /** Parses the file into its root node, or throws a `ConfigError` at `path:line:column`. */
  root(): YamlNode {
    if (this.text.length > MAX_CATALOG_BYTES) throw new ConfigError(`${this.path}:1:1: file is ${this.text.length} bytes, more than the ${MAX_CATALOG_BYTES} a catalog may have`);
    try {
      return parseYamlDocument(this.text);
    } catch (e) {
      throw this.rewrap(e);
    }
  }

  /** `path:line:column` of a node (column 1 where the node has no position). */
  where(node: YamlNode): string {
    const range = (node.node as { range?: [number, number, number] } | null)?.range;
    if (range === undefined) return `${this.path}:${Math.max(1, node.line)}:1`;
    return this.offsetWhere(range[0]);
  }

  /** Throws a `ConfigError` at `node`: `path:line:column: field: message`. */
  fail(node: YamlNode, message: string): never {
    const p = node.path.replace(/^\./, '');
    const field = p === '' ? '' : `${p}: `;
    throw new ConfigError(`${this.where(node)}: ${field}${message}`);
  }

  /** Fails at the key `key` of map `node` (where a misspelt field is), else at its value. */
  private failAtKey(node: YamlNode, key: string, value: YamlNode, message: string): never {
    const m = node.node;
    const pair = isMap(m) ? m.items.find((p) => isScalar(p.key) && String(p.key.value) === key) : undefined;
    const range = pair !== undefined && isScalar(pair.key) ? pair.key.range : undefined;
    if (range === undefined || range === null) this.fail(value, message);
    const p = value.path.replace(/^\./, '');
    throw new ConfigError(`${this.offsetWhere(range[0])}: ${p === '' ? '' : `${p}: `}${message}`);
  }

  private offsetWhere(off: number): string {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= off) lo = mid;
      else hi = mid - 1;
    }
    return `${this.path}:${lo + 1}:${off - this.lineStarts[lo] + 1}`;
  }

  /** Turns src/config's `line L: …` into this file's `path:L:1: …` (the reader keeps no column). */
  rewrap(e: unknown): unknown {
    if (!(e instanceof ConfigError)) return e;
    const m = /^line (\d+): (.*)$/s.exec(e.message);
    return new ConfigError(m === null ? `${this.path}:1:1: ${e.message}` : `${this.path}:${m[1]}:1: ${m[2]}`);
  }

  /**
   * The fields of a map node, refusing any key not in `known` (a misspelt field must not be read as
   * absent). Null is the empty map; anything but a map fails.
   */
  fields(node: YamlNode, what: string, known: readonly string[]): Partial<Record<string, YamlNode>> {
    if (node.isNull()) return {};
    if (!isMapNode(node)) this.fail(node, `${what} must be a map`);
    const out: Partial<Record<string, YamlNode>> = {};
    for (const [key, value] of this.entries(node)) {
      if (!known.includes(key)) this.failAtKey(node, key, value, `unknown field ${JSON.stringify(key)} in ${what} (known: ${known.join(', ')})`);
      out[key] = value;
    }
    return out;
  }

  /** A list node's items (null is the empty list). */
  list(node: YamlNode, what: string): YamlNode[] {
    if (node.isNull()) return [];
    if (!isSeqNode(node)) this.fail(node, `${what} must be a list`);
    return this.guard(() => node.list());
  }

  /** A non-empty string scalar. */
  string(node: YamlNode, what: string): string {
    const v = (node.node as { value?: unknown } | null)?.value;
    if (!isScalarNode(node) || v === null || v === undefined || typeof v === 'object') this.fail(node, `${what} must be a string`);
    const s = this.guard(() => node.string()).trim();
    if (s === '') this.fail(node, `${what} must not be empty`);
    return s;
  }

  /** A finite number scalar, at least `min` (and below `below` when given). */
  number(node: YamlNode, what: string, o: { min: number; below?: number; integer?: boolean }): number {
    const v = (node.node as { value?: unknown } | null)?.value;
    if (!isScalarNode(node) || typeof v !== 'number') this.fail(node, `${what} must be a number`);
    if (!Number.isFinite(v)) this.fail(node, `${what} must be finite, not ${String(v)}`);
    if (o.integer === true && !Number.isInteger(v)) this.fail(node, `${what} must be a whole number, not ${v}`);
    if (v < o.min) this.fail(node, `${what} must be at least ${o.min}, not ${v}`);
    if (o.below !== undefined && v >= o.below) this.fail(node, `${what} must be below ${o.below}, not ${v}`);
    return v;
  }

  /** One of `allowed`. */
  oneOf<T extends string>(node: YamlNode, what: string, allowed: readonly T[]): T {
    const s = this.string(node, what);
    if (!(allowed as readonly string[]).includes(s)) this.fail(node, `${what} must be one of ${allowed.join(', ')}, not ${JSON.stringify(s)}`);
    return s as T;
  }

  private entries(node: YamlNode): [string, YamlNode][] {
    return this.guard(() => node.entries());
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw this.rewrap(e);
    }
  }
}

function isMapNode(node: YamlNode): boolean {
  return isMap(node.node);
}

function isSeqNode(node: YamlNode): boolean {
  return isSeq(node.node);
}

function isScalarNode(node: YamlNode): boolean {
  return isScalar(node.node);
}
