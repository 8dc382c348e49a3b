import type { UnixMs } from './time.js';

/** One sample a derived-data writer hands to its sink: its labels (`__name__` included), time and value. */
export interface SeriesSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly tMs: UnixMs;
  readonly value: number;
}

/**
 * The output port of the modules that derive series from PromQL answers (diagnosis, cost,
 * quality): they may not import storage (DESIGN.md), so they declare this and `src/server` binds it
 * to the store's `Appendable` (`appendableSink` in src/server/series-sink.ts). `write` is called
 * with one tick's (or one replayed chunk's) samples, in time order per series across calls, and
 * resolves once they are stored; a rejection loses that call's samples, never earlier ones.
 */
export interface SeriesSink {
  write(samples: readonly SeriesSample[]): Promise<void>;
}
