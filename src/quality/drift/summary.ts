/**
 * Drift events in words: what moved, from what to what, and the test's statistic against its
 * threshold. Shown by the API and the Quality page (as text).
 */
import { binnedMean, total, type Bins } from './distribution.js';
import type { InputDriftOpened } from './input-detector.js';
import type { InputWindows } from './features.js';
import type { ScoreDriftOpened } from './score-detector.js';

const fmt = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const minutes = (ms: number): string => `${Math.round(ms / 60_000)} min`;

/** A score drift: the dimension, its reference and its value at detection, Page–Hinkley's statistic. */
export function scoreSummary(dimension: string, o: ScoreDriftOpened): string {
  const verb = o.direction === 'down' ? 'fell' : 'rose';
  return `The ${dimension} score ${verb} from ${fmt(o.reference)} to ${fmt(o.value)} (Page–Hinkley ${fmt(o.statistic)} score-minutes over its threshold).`;
}

/** The share of the second bin (a flag's share of the sampled responses). */
function share(b: Bins): number {
  const n = total(b);
  return n > 0 ? (b.counts[1] ?? 0) / n : Number.NaN;
}

/** An input drift: the feature's recent and baseline summaries, the test's statistic and threshold. */
export function inputSummary(feature: string, o: InputDriftOpened, w: InputWindows): string {
  const windows = `the last ${minutes(w.recentMs)} against the ${minutes(w.baselineMs)} before`;
  const what =
    feature === 'prompt_length' || feature === 'output_length'
      ? `${feature.replace('_', ' ')}: a mean of about ${fmt(binnedMean(o.recent), 0)} tokens in ${windows} (about ${fmt(binnedMean(o.baseline), 0)})`
      : `the ${feature} flag: ${fmt(share(o.recent) * 100, 1)}% of sampled responses in ${windows} (${fmt(share(o.baseline) * 100, 1)}%)`;
  return `The distribution of ${what}; ${o.test.toUpperCase()} ${fmt(o.statistic)} over its threshold ${fmt(o.threshold)}.`;
}
