import { describe, expect, it } from 'vitest';
import { formatTextExposition } from '../wire/index.js';
import { EventLoopDelayMetrics, type EventLoopHistogram } from './self-metrics.js';

/** A histogram that reports given delays (ms) for each window, like perf_hooks' one after `reset`. */
class FakeHistogram implements EventLoopHistogram {
  enabled = false;
  private delaysNs: number[] = [];
  get count(): number {
    return this.delaysNs.length;
  }
  get mean(): number {
    return this.delaysNs.length === 0 ? NaN : this.delaysNs.reduce((a, b) => a + b, 0) / this.delaysNs.length;
  }
  get max(): number {
    return this.delaysNs.length === 0 ? 0 : Math.max(...this.delaysNs);
  }
  percentile(p: number): number {
    if (this.delaysNs.length === 0) return NaN;
    const sorted = [...this.delaysNs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  }
  record(...ms: number[]): void {
    this.delaysNs.push(...ms.map((m) => m * 1e6));
  }
  reset(): void {
    this.delaysNs = [];
  }
  enable(): boolean {
    return (this.enabled = true);
  }
  disable(): boolean {
    this.enabled = false;
    return true;
  }
}

/** The exposition lines of one read, as `name{labels} value`. */
function read(m: EventLoopDelayMetrics): string[] {
  return formatTextExposition(m.families())
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe('EventLoopDelayMetrics', () => {
  it.each([
    {
      name: 'one window of delays',
      windows: [[1, 2, 3, 4, 100]],
      want: [
        'infersight_event_loop_delay_seconds{quantile="0.5"} 0.003',
        'infersight_event_loop_delay_seconds{quantile="0.9"} 0.1',
        'infersight_event_loop_delay_seconds{quantile="0.99"} 0.1',
        'infersight_event_loop_delay_seconds_sum 0.11',
        'infersight_event_loop_delay_seconds_count 5',
        'infersight_event_loop_delay_max_seconds 0.1',
      ],
    },
    {
      // Quantiles and max start afresh at each read; sum and count keep adding up.
      name: 'a second window forgets the first one’s worst delay',
      windows: [[1000], [250, 500]],
      want: [
        'infersight_event_loop_delay_seconds{quantile="0.5"} 0.25',
        'infersight_event_loop_delay_seconds{quantile="0.9"} 0.5',
        'infersight_event_loop_delay_seconds{quantile="0.99"} 0.5',
        'infersight_event_loop_delay_seconds_sum 1.75',
        'infersight_event_loop_delay_seconds_count 3',
        'infersight_event_loop_delay_max_seconds 0.5',
      ],
    },
    {
      // Read again within the sampling resolution: perf_hooks answers NaN, exposed as zero.
      name: 'an empty window',
      windows: [[5], []],
      want: [
        'infersight_event_loop_delay_seconds{quantile="0.5"} 0',
        'infersight_event_loop_delay_seconds{quantile="0.9"} 0',
        'infersight_event_loop_delay_seconds{quantile="0.99"} 0',
        'infersight_event_loop_delay_seconds_sum 0.005',
        'infersight_event_loop_delay_seconds_count 1',
        'infersight_event_loop_delay_max_seconds 0',
      ],
    },
  ])('$name', ({ windows, want }) => {
    const h = new FakeHistogram();
    const m = new EventLoopDelayMetrics(h);
    expect(h.enabled).toBe(true);
    let lines: string[] = [];
    for (const w of windows) {
      h.record(...w);
      lines = read(m);
    }
    expect(lines).toEqual(want);
    m.stop();
    expect(h.enabled).toBe(false);
  });
});
