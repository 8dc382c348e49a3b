/**
 * A `SampleStore` in memory for the server's tests (the wiring, the routes, the Quality page's
 * browser test): the whole contract of src/quality/types.ts, kept simple (arrays, linear scans),
 * so that the tests exercise the server and not a database. Sizes are the UTF-8 bytes of the texts.
 */
import type { UnixMs } from '../../model/index.js';
import type { Evaluation, SampleFilter, SampleRecord, SampleStore, SampleStoreStats, SampledPair } from '../../quality/index.js';

/** The most a `find` answers, as a real store caps it. */
const MAX_FIND = 1000;

/** See the file comment. `failWrites` makes every write reject (a full disk). */
export class MemorySampleStore implements SampleStore {
  readonly kind = 'memory';
  private readonly pairs = new Map<string, SampledPair>();
  private readonly evaluations = new Map<string, Evaluation[]>();
  migrated = false;
  closed = false;
  failWrites: Error | null = null;

  async migrate(): Promise<void> {
    this.migrated = true;
  }

  async putPairs(pairs: readonly SampledPair[]): Promise<void> {
    this.check();
    for (const p of pairs) this.pairs.set(p.id, p);
  }

  async putEvaluations(evaluations: readonly Evaluation[]): Promise<void> {
    this.check();
    if (evaluations.some((e) => !this.pairs.has(e.pairId))) throw new Error('evaluation of an unknown pair');
    for (const e of evaluations) this.evaluations.set(e.pairId, [...(this.evaluations.get(e.pairId) ?? []), e]);
  }

  async find(f: SampleFilter): Promise<SampleRecord[]> {
    const scored = (r: SampleRecord): boolean => {
      if (f.minScore === undefined && f.maxScore === undefined && f.dimension === undefined) return true;
      return r.evaluations.some(
        (e) =>
          (f.dimension === undefined || e.dimension === f.dimension) &&
          e.score !== null &&
          (f.minScore === undefined || e.score >= f.minScore) &&
          (f.maxScore === undefined || e.score <= f.maxScore),
      );
    };
    return [...this.pairs.values()]
      .filter((p) => (f.model === undefined || p.model === f.model) && (f.component === undefined || p.component === f.component))
      .filter((p) => (f.startMs === undefined || p.tMs >= f.startMs) && (f.endMs === undefined || p.tMs <= f.endMs))
      .map((p) => this.record(p))
      .filter((r) => f.flag === undefined || r.evaluations.some((e) => e.flag === f.flag))
      .filter(scored)
      .sort((a, b) => b.pair.tMs - a.pair.tMs || (a.pair.id < b.pair.id ? -1 : 1))
      .slice(0, Math.min(f.limit ?? MAX_FIND, MAX_FIND));
  }

  async get(id: string): Promise<SampleRecord | null> {
    const p = this.pairs.get(id);
    return p === undefined ? null : this.record(p);
  }

  async stats(): Promise<SampleStoreStats> {
    let bytes = 0;
    let oldestMs: UnixMs | null = null;
    let evaluations = 0;
    for (const p of this.pairs.values()) {
      bytes += this.size(p);
      oldestMs = oldestMs === null ? p.tMs : Math.min(oldestMs, p.tMs);
    }
    for (const list of this.evaluations.values()) evaluations += list.length;
    return { pairs: this.pairs.size, evaluations, bytes, oldestMs };
  }

  async enforceRetention(nowMs: UnixMs, limits: { readonly maxAgeMs: number; readonly maxBytes: number }): Promise<number> {
    let deleted = 0;
    const byAge = [...this.pairs.values()].sort((a, b) => a.tMs - b.tMs);
    let bytes = byAge.reduce((n, p) => n + this.size(p), 0);
    for (const p of byAge) {
      if (p.tMs >= nowMs - limits.maxAgeMs && bytes <= limits.maxBytes) break;
      this.pairs.delete(p.id);
      this.evaluations.delete(p.id);
      bytes -= this.size(p);
      deleted++;
    }
    return deleted;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw new Error('the store is closed');
    if (this.failWrites !== null) throw this.failWrites;
  }

  private record(p: SampledPair): SampleRecord {
    return { pair: p, evaluations: [...(this.evaluations.get(p.id) ?? [])] };
  }

  private size(p: SampledPair): number {
    return Buffer.byteLength(p.prompt, 'utf8') + Buffer.byteLength(p.response, 'utf8');
  }
}
