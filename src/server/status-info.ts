import { formatDuration } from '../model/index.js';
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
  const parts = [retention.ms > 0 ? formatDuration(retention.ms) : '', retention.bytes > 0 ? `${retention.bytes}B` : ''];
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
