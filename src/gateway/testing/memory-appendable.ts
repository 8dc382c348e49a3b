/**
 * Test helper: an `Appendable` that keeps committed samples in memory by series, with a
 * lookup by name and labels, so tests can read what the gateway wrote.
 */
import type { Labels, UnixMs } from '../../model/index.js';
import type { Appendable, Appender } from '../../storage/index.js';

/** One committed sample. */
export interface StoredSample {
  readonly labels: Labels;
  readonly tMs: UnixMs;
  readonly value: number;
}

/** The in-memory store. */
export class MemoryAppendable implements Appendable {
  readonly samples: StoredSample[] = [];
  commits = 0;

  appender(): Appender {
    const staged: StoredSample[] = [];
    let closed = false;
    return {
      append: (ref, labels, tMs, value) => {
        staged.push({ labels, tMs, value });
        return ref === 0 ? staged.length : ref;
      },
      commit: async () => {
        if (closed) throw new Error('closed');
        closed = true;
        this.samples.push(...staged);
        this.commits++;
      },
      rollback: () => {
        closed = true;
      },
    };
  }

  /** The latest value of the series named `name` whose labels include `match`, summed over matching series. */
  latest(name: string, match: Readonly<Record<string, string>> = {}): number {
    const last = new Map<string, StoredSample>();
    for (const s of this.samples) {
      if (s.labels.metricName !== name) continue;
      if (!Object.entries(match).every(([k, v]) => s.labels.get(k) === v)) continue;
      const key = s.labels.key();
      const prev = last.get(key);
      if (prev === undefined || prev.tMs <= s.tMs) last.set(key, s);
    }
    let sum = 0;
    for (const s of last.values()) sum += s.value;
    return sum;
  }
}
