/**
 * Debian's Prometheus 2.42 as a PromQL reference on loopback, for the PromQL benchmarks and the
 * differential test (test/interop/promql-differential.test.ts). Samples reach it the way
 * bench/tsdb/prometheus-disk.bench.ts puts them on disk: an OpenMetrics file (families together,
 * each series' samples in time order, `# EOF` last) turned into blocks by
 * `promtool tsdb create-blocks-from openmetrics`; `prometheus` then serves that directory.
 *
 * Blocks with old timestamps are fine: time retention counts back from the newest block, not from
 * the wall clock, and queries carry explicit times. This module imports no test framework, so a
 * bench (a plain Node process) can use it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Labels } from '../../src/model/index.js';
import { freePort, startReadyPeer } from '../../test/peers/peers.js';

/** `name{a="x",...}` in OpenMetrics notation, label values escaped. */
export function openMetricsSeries(labels: Labels): string {
  const parts: string[] = [];
  labels.forEach((n, v) => {
    if (n !== '__name__') parts.push(`${n}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  });
  return `${labels.metricName}{${parts.join(',')}}`;
}

/** A float in OpenMetrics notation (JavaScript's shortest round-trip form; infinities as `+Inf`/`-Inf`). */
export function openMetricsValue(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/**
 * An OpenMetrics file written through one reused buffer (building the text as JavaScript strings
 * is several times slower at gigabyte sizes). `close` appends `# EOF`.
 */
export class OpenMetricsFile {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(1 << 23);
  private pos = 0;
  /** Bytes written so far. */
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  /** The UTF-8 bytes of `openMetricsSeries(labels) + ' '`, to pass to `sample` for every sample of the series. */
  static head(labels: Labels): Buffer {
    return Buffer.from(`${openMetricsSeries(labels)} `);
  }

  /** Writes one sample line: `head`, the value, a space and the timestamp in seconds. */
  sample(head: Buffer, value: number, tMs: number): void {
    this.text(head, `${openMetricsValue(value)} ${tMs / 1000}\n`);
  }

  /** Writes `head` followed by ASCII `rest` (a value and a timestamp text already formatted). */
  text(head: Buffer, rest: string): void {
    if (this.pos + head.length + rest.length > this.buf.length) this.flush();
    this.pos += head.copy(this.buf, this.pos);
    this.pos += this.buf.write(rest, this.pos, 'latin1');
  }

  /** Writes `# EOF` and closes the file. */
  close(): void {
    this.text(Buffer.alloc(0), '# EOF\n');
    this.flush();
    fs.closeSync(this.fd);
  }

  private flush(): void {
    fs.writeSync(this.fd, this.buf, 0, this.pos);
    this.bytes += this.pos;
    this.pos = 0;
  }
}

/** Runs `promtool tsdb create-blocks-from openmetrics file outDir`; returns the seconds it took. */
export function createBlocks(promtool: string, file: string, outDir: string): number {
  const t0 = performance.now();
  const res = spawnSync(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', file, outDir], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`promtool tsdb create-blocks-from failed (status ${res.status}, signal ${res.signal}): ${res.stderr.slice(-2000)}`);
  return (performance.now() - t0) / 1000;
}

/** The samples in the blocks under `dataDir` (the sum of their meta.json `stats.numSamples`). */
export function blockSamples(dataDir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const meta = path.join(dataDir, e.name, 'meta.json');
    if (e.isDirectory() && fs.existsSync(meta)) n += (JSON.parse(fs.readFileSync(meta, 'utf8')) as { stats: { numSamples: number } }).stats.numSamples;
  }
  return n;
}

/** A running Prometheus and how to reach and stop it. */
export interface PrometheusPeer {
  readonly base: string;
  readonly client: PrometheusHttp;
  /** The process' peak resident memory so far (Linux `VmHWM`), or null where /proc is missing. */
  maxRssBytes(): number | null;
  output(): string;
  stop(): Promise<void>;
}

/** Limits raised above Prometheus' defaults, so that a benchmark measures speed, not a refusal. */
export interface PrometheusLimits {
  maxSamples?: number;
  timeoutS?: number;
}

/**
 * Starts `prometheus` on `dataDir` (blocks already in it) with no scrape targets, an evaluation
 * interval of 1 m (the step of subqueries written without one, as the engine's default) and the
 * default 5 m lookback; resolves once `/-/ready` answers 200.
 */
export async function startPrometheus(binary: string, dataDir: string, limits: PrometheusLimits = {}): Promise<PrometheusPeer> {
  const config = path.join(dataDir, '..', `prometheus-${path.basename(dataDir)}.yml`);
  fs.writeFileSync(config, 'global:\n  scrape_interval: 1m\n  evaluation_interval: 1m\n');
  const port = await freePort();
  const args = [`--config.file=${config}`, `--storage.tsdb.path=${dataDir}`, `--web.listen-address=127.0.0.1:${port}`];
  if (limits.maxSamples !== undefined) args.push(`--query.max-samples=${limits.maxSamples}`);
  if (limits.timeoutS !== undefined) args.push(`--query.timeout=${limits.timeoutS}s`);
  const base = `http://127.0.0.1:${port}`;
  const p = await startReadyPeer('prometheus', binary, args, `${base}/-/ready`);
  return {
    base,
    client: new PrometheusHttp(base),
    maxRssBytes: () => {
      const status = p.child.pid === undefined ? '' : fs.readFileSync(`/proc/${p.child.pid}/status`, { encoding: 'utf8', flag: 'r' });
      const kb = /VmHWM:\s+(\d+) kB/.exec(status);
      return kb === null ? null : Number(kb[1]) * 1024;
    },
    output: p.output,
    stop: p.stop,
  };
}

/** The body of a Prometheus `/api/v1/query*` answer (success or error). */
export interface ApiResponse {
  status: 'success' | 'error';
  errorType?: string;
  error?: string;
  warnings?: string[];
  data?: {
    resultType: 'vector' | 'matrix' | 'scalar' | 'string';
    result: unknown;
    stats?: { timings?: Record<string, number>; samples?: { totalQueryableSamples?: number; peakSamples?: number } };
  };
}

/** Minimal HTTP client for Prometheus' query API; times are Unix ms, sent as seconds. */
export class PrometheusHttp {
  constructor(readonly base: string) {}

  /** `GET /api/v1/query` at `tMs`; `stats=all` when asked. */
  query(expr: string, tMs: number, stats = false): Promise<ApiResponse> {
    return this.call('query', { query: expr, time: String(tMs / 1000), ...(stats ? { stats: 'all' } : {}) });
  }

  /** `GET /api/v1/query_range` over `[startMs, endMs]` every `stepMs`. */
  queryRange(expr: string, startMs: number, endMs: number, stepMs: number, stats = false): Promise<ApiResponse> {
    return this.call('query_range', {
      query: expr,
      start: String(startMs / 1000),
      end: String(endMs / 1000),
      step: String(stepMs / 1000),
      ...(stats ? { stats: 'all' } : {}),
    });
  }

  private async call(endpoint: string, params: Record<string, string>): Promise<ApiResponse> {
    const res = await fetch(`${this.base}/api/v1/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    return (await res.json()) as ApiResponse;
  }
}
