import type { DurationMs } from '../model/index.js';

/** Prometheus' duration syntax (`model.ParseDuration`): units in decreasing order, each at most once. */
const DURATION_RE = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;
const UNIT_MS = [31_536_000_000, 604_800_000, 86_400_000, 3_600_000, 60_000, 1000, 1];

/**
 * Parses a duration exactly as Prometheus' configuration does (`1m30s`, `500ms`, `0`); units must
 * appear in decreasing order. Throws an `Error` worded like Prometheus' on anything else.
 */
export function parsePromDuration(text: string): DurationMs {
  if (text === '0') return 0;
  if (text === '') throw new Error('empty duration string');
  const m = DURATION_RE.exec(text);
  if (m === null) throw new Error(`not a valid duration string: ${JSON.stringify(text)}`);
  let total = 0;
  for (let i = 0; i < UNIT_MS.length; i++) if (m[i + 1] !== undefined) total += Number(m[i + 1]) * UNIT_MS[i];
  if (!Number.isSafeInteger(total)) throw new Error('duration out of range');
  return total;
}

/**
 * Formats a duration as Prometheus' `model.Duration.String()` does: `15s`, `1m30s`, `1h`, `0s`;
 * years and weeks only when they divide the duration exactly.
 */
export function formatPromDuration(ms: DurationMs): string {
  if (ms === 0) return '0s';
  const units: [string, number, boolean][] = [
    ['y', UNIT_MS[0], true],
    ['w', UNIT_MS[1], true],
    ['d', UNIT_MS[2], false],
    ['h', UNIT_MS[3], false],
    ['m', UNIT_MS[4], false],
    ['s', UNIT_MS[5], false],
    ['ms', 1, false],
  ];
  let rest = ms;
  let out = '';
  for (const [unit, size, exact] of units) {
    if (exact && rest % size !== 0) continue;
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return out;
}
