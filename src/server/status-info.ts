import fs from 'node:fs';
import os from 'node:os';
import type { BuildInfo, RuntimeInfo } from './api/index.js';

/** The Prometheus release whose HTTP API Infersight's is checked against (reported by buildinfo, see docs/api.md). */
export const PROMETHEUS_API_VERSION = '2.42.0';

/** Infersight's version from package.json ('unknown' if it cannot be read). */
export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Prometheus' duration notation (`model.Duration.String`: `15d`, `2w`, `1h30m`, `0s`; years and weeks only when exact). */
export function formatPromDuration(ms: number): string {
  if (ms === 0) return '0s';
  const units: [string, number, boolean][] = [
    ['y', 31_536_000_000, true],
    ['w', 604_800_000, true],
    ['d', 86_400_000, false],
    ['h', 3_600_000, false],
    ['m', 60_000, false],
    ['s', 1000, false],
    ['ms', 1, false],
  ];
  let rest = ms;
  let out = '';
  for (const [u, size, exact] of units) {
    if (exact && rest % size !== 0) continue;
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${u}`;
      rest %= size;
    }
  }
  return out;
}

/**
 * `/api/v1/status/buildinfo`: `version` is the Prometheus API level (clients such as Grafana pick
 * features by it), Infersight's own version is in `revision`.
 */
export function buildInfo(): BuildInfo {
  return {
    version: PROMETHEUS_API_VERSION,
    revision: `infersight-${packageVersion()}`,
    branch: 'infersight',
    buildUser: '',
    buildDate: '',
    goVersion: `node ${process.version}`,
  };
}

/** RFC 3339 with the fraction trimmed, as Go's `time.RFC3339Nano` prints. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** `/api/v1/status/runtimeinfo` with Prometheus' keys; Go-only numbers get Node's nearest or zero. */
export function runtimeInfo(startedMs: number, retention: { ms: number; bytes: number }, corruptions: number): RuntimeInfo {
  const started = rfc3339(startedMs);
  const parts = [retention.ms > 0 ? formatPromDuration(retention.ms) : '', retention.bytes > 0 ? `${retention.bytes}B` : ''];
  return {
    startTime: started,
    CWD: process.cwd(),
    reloadConfigSuccess: true,
    lastConfigTime: started.replace(/\.\d+Z$/, 'Z'),
    corruptionCount: corruptions,
    goroutineCount: 0,
    GOMAXPROCS: os.availableParallelism(),
    GOGC: '',
    GODEBUG: '',
    storageRetention: parts.filter((p) => p !== '').join(' or '),
  };
}
