import type { UnixMs } from '../model/index.js';
import type { HeadStats } from './head/index.js';
import type { WalStats } from './wal/index.js';

/** Self-monitoring numbers of a `Db`, all plain numbers; the server renders them as metrics. */
export interface DbStats {
  head: HeadStats & { series: number; minTimeMs: UnixMs; maxTimeMs: UnixMs };
  wal: WalStats;
  blocks: { count: number; bytes: number };
  compaction: { runs: number; failures: number; secondsTotal: number; blocksDeleted: number };
  /** WAL checkpoints written from memory (after block cuts and as the WAL grows). */
  checkpoints: { count: number; secondsTotal: number };
  /** How long the last open took to replay the WAL. */
  replaySeconds: number;
}
