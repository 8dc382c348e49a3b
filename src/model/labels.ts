/** The label that holds a series' metric name. */
export const METRIC_NAME_LABEL = '__name__';

const SEP = '\u0000';

/**
 * An immutable, sorted set of label name/value pairs identifying one series, `__name__` included.
 *
 * Names are unique and sorted by code unit order (Prometheus sorts by byte order; for the ASCII
 * names Prometheus allows and for UTF-8 names outside the BMP the two orders can differ only for
 * surrogate pairs, which we accept). Empty values are dropped at construction, as Prometheus treats
 * a label with an empty value as absent. Instances are shared freely: never mutate one.
 */
export class Labels {
  /** The empty label set. */
  static readonly EMPTY = new Labels([]);

  private cachedKey: string | undefined;

  /** Use `Labels.from` or `Labels.fromPairs`; this constructor trusts that `pairs` is sorted and unique. */
  private constructor(private readonly pairs: readonly string[]) {}

  /** Builds labels from a record such as `{ __name__: 'up', job: 'vllm' }`. */
  static from(record: Readonly<Record<string, string>>): Labels {
    const flat: string[] = [];
    for (const name of Object.keys(record)) flat.push(name, record[name]);
    return Labels.fromPairs(flat);
  }

  /**
   * Builds labels from a flat `[name, value, name, value, ...]` array in any order. The array is
   * not retained. Later duplicates of a name win; empty values are dropped.
   */
  static fromPairs(flat: readonly string[]): Labels {
    if (flat.length % 2 !== 0) throw new Error('labels: odd number of strings in a name/value list');
    const entries: [string, string][] = [];
    for (let i = 0; i < flat.length; i += 2) entries.push([flat[i], flat[i + 1]]);
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const pairs: string[] = [];
    for (let i = 0; i < entries.length; i++) {
      const [name, value] = entries[i];
      if (i + 1 < entries.length && entries[i + 1][0] === name) continue; // a later duplicate wins
      if (value !== '') pairs.push(name, value);
    }
    return new Labels(pairs);
  }

  /**
   * Wraps an already sorted, duplicate-free flat array without copying or checking it. For
   * decoders of formats Infersight wrote itself (WAL, block index); the array must not be mutated.
   */
  static fromSortedPairsUnchecked(pairs: readonly string[]): Labels {
    return new Labels(pairs);
  }

  /** The number of labels. */
  get size(): number {
    return this.pairs.length >> 1;
  }

  /** The metric name, or '' when there is none. */
  get metricName(): string {
    return this.get(METRIC_NAME_LABEL);
  }

  /** The value of label `name`, or '' when absent (Prometheus' convention). */
  get(name: string): string {
    const p = this.pairs;
    for (let i = 0; i < p.length; i += 2) if (p[i] === name) return p[i + 1];
    return '';
  }

  /** Reports whether label `name` is present. */
  has(name: string): boolean {
    const p = this.pairs;
    for (let i = 0; i < p.length; i += 2) if (p[i] === name) return true;
    return false;
  }

  /** The name of the i-th label in sort order. */
  nameAt(i: number): string {
    return this.pairs[2 * i];
  }

  /** The value of the i-th label in sort order. */
  valueAt(i: number): string {
    return this.pairs[2 * i + 1];
  }

  /** Calls `fn` for every label in sort order. */
  forEach(fn: (name: string, value: string) => void): void {
    const p = this.pairs;
    for (let i = 0; i < p.length; i += 2) fn(p[i], p[i + 1]);
  }

  /** The flat sorted `[name, value, ...]` array. Read-only; shared with this instance. */
  flat(): readonly string[] {
    return this.pairs;
  }

  /**
   * A string that is equal for two label sets exactly when they are equal; use it as a Map key.
   * Cached after the first call.
   */
  key(): string {
    if (this.cachedKey === undefined) {
      const joined = this.pairs.join(SEP);
      // A NUL inside a value could make two different sets join alike; fall back to an
      // unambiguous length-prefixed form (marked by a leading NUL, which no plain key starts with).
      this.cachedKey = this.pairs.some((s) => s.includes(SEP))
        ? SEP + this.pairs.map((s) => `${s.length}:${s}`).join('')
        : joined;
    }
    return this.cachedKey;
  }

  /**
   * A 32-bit FNV-1a hash of the names and values (with separators), computed without building or
   * caching `key()`, so that stores can index series without keeping a key string per series.
   * Different label sets can collide: always confirm with `equals`.
   */
  hash(): number {
    const p = this.pairs;
    let h = 0x811c9dc5;
    for (let i = 0; i < p.length; i++) {
      const s = p[i];
      for (let j = 0; j < s.length; j++) {
        h ^= s.charCodeAt(j);
        h = Math.imul(h, 0x01000193);
      }
      h ^= 0xff;
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  /** Reports whether both sets hold the same labels. */
  equals(other: Labels): boolean {
    if (this === other) return true;
    const a = this.pairs;
    const b = other.pairs;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Orders label sets as Prometheus does: label by label, name before value; a prefix sorts first. */
  compare(other: Labels): number {
    const a = this.pairs;
    const b = other.pairs;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return a.length - b.length;
  }

  /** A copy with `name` set to `value` (removed when `value` is ''). */
  with(name: string, value: string): Labels {
    const out: string[] = [];
    const p = this.pairs;
    let placed = value === '';
    for (let i = 0; i < p.length; i += 2) {
      if (p[i] === name) continue;
      if (!placed && p[i] > name) {
        out.push(name, value);
        placed = true;
      }
      out.push(p[i], p[i + 1]);
    }
    if (!placed) out.push(name, value);
    return new Labels(out);
  }

  /** A copy without the named labels. */
  without(...names: string[]): Labels {
    const out: string[] = [];
    const p = this.pairs;
    for (let i = 0; i < p.length; i += 2) if (!names.includes(p[i])) out.push(p[i], p[i + 1]);
    return out.length === p.length ? this : new Labels(out);
  }

  /** The labels as a plain record. */
  toRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    this.forEach((n, v) => (out[n] = v));
    return out;
  }

  /** Prometheus' notation: `up{job="vllm"}`, with values escaped as in the text format. */
  toString(): string {
    const parts: string[] = [];
    let name = '';
    this.forEach((n, v) => {
      if (n === METRIC_NAME_LABEL) name = v;
      else parts.push(`${n}=${JSON.stringify(v)}`);
    });
    return parts.length === 0 && name !== '' ? name : `${name}{${parts.join(', ')}}`;
  }
}
