import { DurationSyntaxError, goQuote, parseDuration, type DurationMs } from '../model/index.js';

/**
 * Parses a duration of a configuration or rule file with `src/model`'s `parseDuration` (the one
 * strict implementation of Prometheus' `model.ParseDuration`: `1m30s`, `500ms`, `0`; units in
 * decreasing order, each at most once, so `1s1h` is refused). Throws `DurationSyntaxError` worded
 * as Prometheus 2.42's configuration loader words it (what promtool 2.42, the reference peer,
 * prints): that version checked durations with one regular expression, so an unknown unit reads
 * `not a valid duration string: "1x"` like every other malformed text.
 */
export function parsePromDuration(text: string): DurationMs {
  try {
    return parseDuration(text);
  } catch (err) {
    if (err instanceof DurationSyntaxError && err.reason === 'unknown-unit') {
      throw new DurationSyntaxError(`not a valid duration string: ${goQuote(text)}`, 'syntax');
    }
    throw err;
  }
}

/**
 * Formats a duration as Prometheus' `model.Duration.String()` does (`15s`, `1m30s`, `0s`): the
 * name the configuration code uses for `src/model`'s `formatDuration`.
 */
export { formatDuration as formatPromDuration } from '../model/index.js';
