/**
 * Small doubles for the tests of `src/rules`, which may not import the engine or the TSDB: a
 * `QueryClient` that answers instant queries from a function, and an `Appendable` that keeps
 * committed samples in a list. Deliberately tiny: the one reference in-memory storage is to live
 * in src/storage/testing (issue 13); this one only rejects what rule tests need rejected.
 */
import { isStaleNaN, type Labels, type UnixMs } from '../../model/index.js';
import { QueryClientError, formatSampleValue, msToUnixSeconds, type InstantQueryData, type QueryClient, type QueryOptions, type QueryResponse } from '../../query/index.js';
import { StorageError, StorageErrorCode, type Appendable, type Appender, type SeriesRef } from '../../storage/index.js';

/** How the scripted client answers: a result, a rejection (throw), or a promise of either. */
export type InstantAnswer = (query: string, tMs: UnixMs, opts: QueryOptions | undefined) => InstantQueryData | Promise<InstantQueryData>;

/** A vector result from `[labels, value]` pairs, stamped at `tMs`. */
export function vectorResult(tMs: UnixMs, samples: readonly (readonly [Record<string, string>, number])[]): InstantQueryData {
  return { resultType: 'vector', result: samples.map(([metric, v]) => ({ metric: { ...metric }, value: [msToUnixSeconds(tMs), formatSampleValue(v)] })) };
}

/** A `QueryClient` whose `instant` is `answer`; the other calls reject. Every instant call is recorded. */
export class ScriptedQueryClient implements QueryClient {
  readonly calls: { query: string; tMs: UnixMs; signal: AbortSignal | undefined }[] = [];
  constructor(public answer: InstantAnswer) {}

  async instant(query: string, tMs: UnixMs, opts?: QueryOptions): Promise<QueryResponse<InstantQueryData>> {
    this.calls.push({ query, tMs, signal: opts?.signal });
    return { data: await this.answer(query, tMs, opts), warnings: [], infos: [] };
  }
  range(): never {
    throw new QueryClientError('internal', 'ScriptedQueryClient answers instant queries only');
  }
  series(): never {
    throw new QueryClientError('internal', 'ScriptedQueryClient answers instant queries only');
  }
  labelNames(): never {
    throw new QueryClientError('internal', 'ScriptedQueryClient answers instant queries only');
  }
  labelValues(): never {
    throw new QueryClientError('internal', 'ScriptedQueryClient answers instant queries only');
  }
  metadata(): never {
    throw new QueryClientError('internal', 'ScriptedQueryClient answers instant queries only');
  }
}

/** One committed sample; `stale` says whether it is the staleness marker. */
export interface RecordedSample {
  readonly series: string;
  readonly tMs: UnixMs;
  readonly value: number;
  readonly stale: boolean;
}

/**
 * An `Appendable` keeping committed samples in order. It rejects out-of-order samples and
 * same-timestamp different values per series (as every storage must), and `failCommits` makes
 * commits reject.
 */
export class RecordingAppendable implements Appendable {
  readonly samples: RecordedSample[] = [];
  failCommits = false;
  /** Appenders opened so far. */
  opened = 0;
  private readonly newest = new Map<string, { tMs: UnixMs; value: number }>();

  appender(): Appender {
    this.opened++;
    const staged: RecordedSample[] = [];
    let closed = false;
    return {
      append: (_ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef => {
        if (closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'appender closed');
        const series = labels.toString();
        const last = [...staged].reverse().find((s) => s.series === series) ?? this.newest.get(series);
        if (last !== undefined && tMs < last.tMs) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, 'out of order sample');
        if (last !== undefined && tMs === last.tMs) {
          if (Object.is(last.value, value) || (isStaleNaN(last.value) && isStaleNaN(value))) return 0;
          throw new StorageError(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP, 'duplicate sample for timestamp');
        }
        staged.push({ series, tMs, value, stale: isStaleNaN(value) });
        return 0;
      },
      commit: () => {
        closed = true;
        if (this.failCommits) return Promise.reject(new StorageError(StorageErrorCode.UNAVAILABLE, 'commit refused'));
        for (const s of staged) {
          this.samples.push(s);
          this.newest.set(s.series, { tMs: s.tMs, value: s.value });
        }
        return Promise.resolve();
      },
      rollback: () => {
        closed = true;
      },
    };
  }

  /** The samples of `series` (its `Labels.toString()` text), as `[tMs, value | 'stale']`. */
  of(series: string): [UnixMs, number | 'stale'][] {
    return this.samples.filter((s) => s.series === series).map((s) => [s.tMs, s.stale ? 'stale' : s.value]);
  }

  /** The distinct series written, sorted. */
  seriesNames(): string[] {
    return [...new Set(this.samples.map((s) => s.series))].sort();
  }
}
