/**
 * A replica's capacity from its benchmark, for over-provisioning: the concurrency at which its
 * aggregate output TPS first reaches `CAPACITY_SHARE` of the benchmark's peak (interpolated between
 * points), and that TPS. Past that knee a bigger batch buys little throughput and costs every user
 * inter-token latency, so it is the load a replica should be planned for, not its largest batch.
 */
import type { BenchmarkEntry } from './types.js';

/** The share of the benchmark's peak aggregate TPS a replica is planned to run at. */
export const CAPACITY_SHARE = 0.8;

/** The capacity of one replica: concurrency and aggregate output TPS. */
export function latencyCapacity(e: BenchmarkEntry): { concurrency: number; outputTps: number } {
  const ps = e.points;
  const peak = Math.max(...ps.map((p) => p.outputTpsAggregate));
  const want = peak * CAPACITY_SHARE;
  if (ps[0].outputTpsAggregate >= want) return { concurrency: ps[0].concurrency, outputTps: ps[0].outputTpsAggregate };
  for (let i = 1; i < ps.length; i++) {
    const a = ps[i - 1];
    const b = ps[i];
    if (b.outputTpsAggregate >= want) {
      const w = (want - a.outputTpsAggregate) / (b.outputTpsAggregate - a.outputTpsAggregate);
      return { concurrency: a.concurrency + w * (b.concurrency - a.concurrency), outputTps: want };
    }
  }
  return { concurrency: ps[ps.length - 1].concurrency, outputTps: peak };
}
