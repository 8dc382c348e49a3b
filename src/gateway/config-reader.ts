/**
 * A strict reader over one mapping of the gateway's YAML configuration: typed getters with
 * defaults, and `done()`, which rejects keys nobody asked for (a typo must not be silently
 * ignored). Every error names the field's path.
 */
import { parseDurationMs, type DurationMs } from '../model/index.js';
import { GatewayConfigError } from './errors.js';

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** Parses a byte size: an integer, or a number with B, KB, MB, GB, KiB, MiB or GiB. */
export function parseSize(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$/.exec(v.trim());
  const unit = m === null ? undefined : SIZE_UNITS[m[2].toUpperCase()];
  return m === null || unit === undefined ? undefined : Math.floor(Number(m[1]) * unit);
}

/** Reads the fields of one YAML mapping at `path`. */
export class FieldReader {
  private readonly seen = new Set<string>();
  private readonly obj: Readonly<Record<string, unknown>>;

  /** `value` must be a mapping (or null/undefined: an empty one). */
  constructor(
    value: unknown,
    readonly path: string,
  ) {
    if (value === null || value === undefined) this.obj = {};
    else if (typeof value === 'object' && !Array.isArray(value)) this.obj = value as Record<string, unknown>;
    else throw new GatewayConfigError(path, 'want a mapping');
  }

  /** The path of field `key`. */
  at(key: string): string {
    return this.path === '' ? key : `${this.path}.${key}`;
  }

  /** Whether `key` is set (not null). */
  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null;
  }

  /** The raw value of `key`, marking it as read. */
  raw(key: string): unknown {
    this.seen.add(key);
    const v = this.obj[key];
    return v === null ? undefined : v;
  }

  /** A string field. */
  str(key: string, def: string): string;
  str(key: string, def?: string): string | undefined;
  str(key: string, def?: string): string | undefined {
    const v = this.raw(key);
    if (v === undefined) return def;
    if (typeof v !== 'string') throw new GatewayConfigError(this.at(key), `want a string, got ${JSON.stringify(v)}`);
    return v;
  }

  /** A number field within [min, max]; an integer when `int`. */
  num(key: string, def: number, o: { min?: number; max?: number; int?: boolean } = {}): number {
    const v = this.raw(key);
    if (v === undefined) return def;
    const ok = typeof v === 'number' && Number.isFinite(v) && (o.int !== true || Number.isSafeInteger(v)) && v >= (o.min ?? -Infinity) && v <= (o.max ?? Infinity);
    if (!ok) {
      const range = o.max === undefined ? `>= ${o.min ?? '-inf'}` : `in [${o.min ?? '-inf'}, ${o.max}]`;
      throw new GatewayConfigError(this.at(key), `want ${o.int === true ? 'an integer' : 'a number'} ${range}, got ${JSON.stringify(v)}`);
    }
    return v;
  }

  /** A boolean field. */
  bool(key: string, def: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined) return def;
    if (typeof v !== 'boolean') throw new GatewayConfigError(this.at(key), `want true or false, got ${JSON.stringify(v)}`);
    return v;
  }

  /** A Prometheus duration (`30s`, `5m`, `1h30m`); `0` is allowed when `allowZero`. */
  duration(key: string, def: DurationMs, allowZero = false): DurationMs {
    const v = this.raw(key);
    if (v === undefined) return def;
    const ms = v === 0 || v === '0' ? 0 : typeof v === 'string' ? parseDurationMs(v) : undefined;
    if (ms === undefined || (ms === 0 && !allowZero)) throw new GatewayConfigError(this.at(key), `want a duration such as 500ms, 30s or 5m, got ${JSON.stringify(v)}`);
    return ms;
  }

  /** A byte size (`4MiB`, `1048576`). */
  size(key: string, def: number): number {
    const v = this.raw(key);
    if (v === undefined) return def;
    const n = parseSize(v);
    if (n === undefined || n <= 0) throw new GatewayConfigError(this.at(key), `want a size such as 4MiB or 1048576, got ${JSON.stringify(v)}`);
    return n;
  }

  /** A nested mapping's reader. */
  child(key: string): FieldReader {
    return new FieldReader(this.raw(key), this.at(key));
  }

  /** A list field (empty when absent). */
  list(key: string): unknown[] {
    const v = this.raw(key);
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new GatewayConfigError(this.at(key), 'want a list');
    return v;
  }

  /** Rejects keys that were never read, naming the known ones. */
  done(): void {
    const unknown = Object.keys(this.obj).filter((k) => !this.seen.has(k));
    if (unknown.length > 0) throw new GatewayConfigError(this.at(unknown[0]), `unknown field (known here: ${[...this.seen].sort().join(', ')})`);
  }
}
