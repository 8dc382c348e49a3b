import type { MemoryStorage } from './memory-storage.js';
import type { LoadCommand } from './script.js';

/** What a `load` wrote, and what it left out. */
export interface LoadStats {
  /** Float samples written (stale markers included). */
  readonly floats: number;
  /** `{{…}}` samples left out: the storage holds floats only. */
  readonly skippedHistograms: number;
}

/**
 * Writes a `load` block into the storage: value i of each series at `i * intervalMs`, omitted
 * values (`_`) leave a gap, the stale marker is written as a sample. Native-histogram values are
 * skipped and counted. `load_with_nhcb` writes its float `_bucket`/`_count`/`_sum` series as usual
 * but not the NHCB histograms it would derive from them. Start timestamps are ignored.
 */
export function applyLoad(storage: MemoryStorage, cmd: LoadCommand): LoadStats {
  let floats = 0;
  let skippedHistograms = 0;
  for (const s of cmd.series) {
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i];
      if (v.kind === 'float') {
        storage.add(s.metric, i * cmd.intervalMs, v.value);
        floats++;
      } else if (v.kind === 'histogram') {
        skippedHistograms++;
      }
    }
  }
  return { floats, skippedHistograms };
}
