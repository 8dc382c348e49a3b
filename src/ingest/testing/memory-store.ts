import type { Labels } from '../../model/index.js';
import { StorageError, StorageErrorCode, type Appendable, type Appender } from '../../storage/index.js';

/** A committed sample as the memory store keeps it. */
export interface StoredSample {
  readonly labels: string;
  readonly tMs: number;
  readonly value: number;
}

/**
 * An in-memory `Appendable` for receiver tests: keeps committed samples in order, refuses
 * out-of-order and duplicate samples as the TSDB does, and can be told to fail.
 */
export class MemoryStore implements Appendable {
  readonly samples: StoredSample[] = [];
  readonly last = new Map<string, { tMs: number; value: number }>();
  /** Set to make the next commit fail with this code. */
  failCommit: StorageErrorCode | null = null;
  /** Set to make `appender()` fail with this code. */
  failOpen: StorageErrorCode | null = null;
  commits = 0;
  rollbacks = 0;

  appender(): Appender {
    if (this.failOpen !== null) throw new StorageError(this.failOpen, 'store says no');
    const staged: StoredSample[] = [];
    const pending = new Map<string, { tMs: number; value: number }>();
    let closed = false;
    return {
      append: (_ref, labels: Labels, tMs, value) => {
        const key = labels.toString();
        const prev = pending.get(key) ?? this.last.get(key);
        if (prev !== undefined && tMs < prev.tMs) throw new StorageError(StorageErrorCode.OUT_OF_ORDER_SAMPLE, `out of order sample at ${tMs} for ${key}`);
        if (prev !== undefined && tMs === prev.tMs) {
          if (Object.is(prev.value, value)) return 1;
          throw new StorageError(StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP, `duplicate sample for timestamp ${tMs} of ${key}`);
        }
        pending.set(key, { tMs, value });
        staged.push({ labels: key, tMs, value });
        return 1;
      },
      commit: () => {
        if (closed) return Promise.reject(new StorageError(StorageErrorCode.APPENDER_CLOSED, 'closed'));
        closed = true;
        if (this.failCommit !== null) {
          const code = this.failCommit;
          this.failCommit = null;
          return Promise.reject(new StorageError(code, 'commit failed'));
        }
        this.commits++;
        this.samples.push(...staged);
        for (const [k, v] of pending) this.last.set(k, v);
        return Promise.resolve();
      },
      rollback: () => {
        closed = true;
        this.rollbacks++;
      },
    };
  }

  /** The committed samples as `labels @t=v` lines (stale markers print as `stale`). */
  lines(): string[] {
    return this.samples.map((s) => `${s.labels} @${s.tMs}=${Number.isNaN(s.value) ? 'stale' : s.value}`);
  }
}
