/**
 * Sends a load file (rw-load-file.ts) to a remote write endpoint in real time: the requests of
 * second `k` are released at `start + (k + 1) s`, when that second's samples exist. Like
 * Prometheus' queue manager, requests go out through `shards` sequential queues, request `b` of
 * every second always through shard `b % shards`, so each series' samples arrive in order.
 * Nothing is retried: an answer other than 2xx counts as failed.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { LoadFile } from './rw-load-file.js';

/** What one run of the load achieved. */
export interface SendResult {
  readonly requests: number;
  readonly requestsFailed: number;
  /** The first few failure answers, for the report. */
  readonly failures: readonly string[];
  readonly samplesWritten: number;
  /** From the start of second 0 until the last answer. */
  readonly wallSeconds: number;
  /** The largest delay between a request's release and its answer. */
  readonly maxLagSeconds: number;
  /** The largest delay among the requests of the last second: how far behind the receiver ended. */
  readonly finalLagSeconds: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
}

const HEADERS = { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0' };

function post(agent: http.Agent, url: URL, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...HEADERS, 'Content-Length': body.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text.length < 500 ? (text += d) : undefined));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays `load` against `writeUrl` through `shards` connections; `onSecond` hears about each second
 * released, `onAnswer` about each request answered (`ok`: a 2xx, so its samples were acknowledged).
 */
export async function sendLoad(load: LoadFile, writeUrl: string, shards: number, onSecond?: (k: number) => void, onAnswer?: (b: number, ok: boolean) => void): Promise<SendResult> {
  const url = new URL(writeUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: shards });
  const fd = fs.openSync(load.file, 'r');
  const total = load.offsets.length;
  const latencies = new Float64Array(total);
  const failures: string[] = [];
  let failed = 0;
  let written = 0;
  let maxLagMs = 0;
  let lastDoneMs = 0;
  let finalLagMs = 0;
  const startMs = performance.now() + 200;
  const releaseMs = (b: number) => startMs + (Math.floor(b / load.batchesPerSecond) + 1) * 1000;
  let announced = -1;
  const shard = async (s: number): Promise<void> => {
    for (let k = 0; k < load.seconds; k++) {
      for (let j = s; j < load.batchesPerSecond; j += shards) {
        const b = k * load.batchesPerSecond + j;
        const wait = releaseMs(b) - performance.now();
        if (wait > 0) await sleep(wait);
        if (k > announced) {
          announced = k;
          onSecond?.(k);
        }
        const body = Buffer.allocUnsafe(load.lengths[b]);
        fs.readSync(fd, body, 0, body.length, load.offsets[b]);
        const sent = performance.now();
        const res = await post(agent, url, body).catch((e: unknown) => ({ status: 0, text: String(e) }));
        const done = performance.now();
        latencies[b] = done - sent;
        maxLagMs = Math.max(maxLagMs, done - releaseMs(b));
        if (done > lastDoneMs) lastDoneMs = done;
        if (k === load.seconds - 1) finalLagMs = Math.max(finalLagMs, done - releaseMs(b));
        const ok = res.status >= 200 && res.status < 300;
        onAnswer?.(b, ok);
        if (ok) written += load.samples[b];
        else {
          failed++;
          if (failures.length < 5) failures.push(`${res.status}: ${res.text.slice(0, 200)}`);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: shards }, (_, s) => shard(s)));
  } finally {
    fs.closeSync(fd);
    agent.destroy();
  }
  const sorted = Float64Array.from(latencies).sort();
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return {
    requests: total,
    requestsFailed: failed,
    failures,
    samplesWritten: written,
    wallSeconds: (lastDoneMs - startMs) / 1000,
    maxLagSeconds: maxLagMs / 1000,
    finalLagSeconds: finalLagMs / 1000,
    latencyP50Ms: Number(pct(0.5).toFixed(1)),
    latencyP99Ms: Number(pct(0.99).toFixed(1)),
  };
}
