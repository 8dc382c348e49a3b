/**
 * Latency the gateway adds to a streamed request, and its streaming throughput.
 *
 * Three processes: a fake OpenAI upstream (streams 10 content chunks 50 ms apart, plus role,
 * finish, usage and [DONE] events), the gateway in front of it (metrics into a discarding
 * Appendable), and this process as the clients. At 100 and 500 concurrent streams, each client
 * loops requests for BENCH_SECONDS straight at the upstream and as long through the gateway, in
 * four alternating rounds; added latency is the difference of the percentiles (p50, p99) of time
 * to first byte and of the whole request. `gatewayOverhead*` is the gateway's own overhead histogram (mean; p99 from its
 * buckets). Throughput: 50 streams of 200 chunks sent without gaps, chunks forwarded per CPU
 * second of the gateway process.
 *
 * Env: BENCH_SECONDS (default 5).
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const ROLES = fileURLToPath(new URL('./roles.ts', import.meta.url));
const children: ChildProcess[] = [];

function start(...args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(ROLES, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, url: (m as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

function cpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { cpuS: number }).cpuS));
    child.send('cpu');
  });
}

const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Say ten words.' }], stream: true, max_tokens: 16 });

/** One streamed request: time to first body byte and to the end, in ms. */
function once(agent: http.Agent, url: URL): Promise<{ ttfbMs: number; e2eMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfb = -1;
    let bytes = 0;
    const req = http.request({ agent, host: url.hostname, port: url.port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', (c: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - t0;
        bytes += c.length;
      });
      res.on('end', () => resolve({ ttfbMs: ttfb, e2eMs: performance.now() - t0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `concurrency` client loops for `ms`: every request's TTFB and E2E. */
async function load(base: string, concurrency: number, ms: number): Promise<{ ttfb: number[]; e2e: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(base);
  const ttfb: number[] = [];
  const e2e: number[] = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await once(agent, url);
        ttfb.push(r.ttfbMs);
        e2e.push(r.e2eMs);
      }
    }),
  );
  agent.destroy();
  return { ttfb, e2e };
}

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

/** The gateway's overhead histogram from its /metrics: mean and p99 (upper bound of the bucket) in ms. */
async function overhead(gw: string): Promise<{ meanMs: number; p99Ms: number }> {
  const text = await (await fetch(`${gw}/metrics`)).text();
  const sum = (suffix: string): number => [...text.matchAll(new RegExp(`^llm_client_overhead_latency_seconds_${suffix}\\{[^}]*\\} (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
  const buckets = new Map<number, number>();
  for (const m of text.matchAll(/^llm_client_overhead_latency_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\S+)$/gm)) {
    const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]));
  }
  const count = sum('count');
  const p99 = [...buckets.entries()].sort((x, y) => x[0] - y[0]).find(([, c]) => c >= 0.99 * count)?.[0] ?? NaN;
  return { meanMs: r2((sum('sum') / count) * 1000), p99Ms: p99 * 1000 };
}

try {
  const up = await start('upstream', '10', '50');
  const gw = await start('gateway', up.url);
  await load(gw.url, 20, 1000); // warm-up: JIT, sockets
  await load(up.url, 20, 500);
  const out: Record<string, number | string> = { bench: 'gateway', upstreamChunks: 10, upstreamGapMs: 50, seconds };
  for (const c of [100, 500]) {
    // Warm both paths at this concurrency (sockets, JIT), then alternate them in rounds so that a
    // change in the machine's load hits both alike.
    await load(up.url, c, 1000);
    await load(gw.url, c, 1000);
    const direct = { ttfb: [] as number[], e2e: [] as number[] };
    const via = { ttfb: [] as number[], e2e: [] as number[] };
    let gwCpuS = 0;
    for (let round = 0; round < 4; round++) {
      for (const [base, into] of [[up.url, direct], [gw.url, via]] as const) {
        const c0 = base === gw.url ? await cpu(gw.child) : 0;
        const r = await load(base, c, (seconds * 1000) / 4);
        if (base === gw.url) gwCpuS += (await cpu(gw.child)) - c0;
        into.ttfb.push(...r.ttfb);
        into.e2e.push(...r.e2e);
      }
    }
    // The gateway process's CPU use while it carried the load (1 = one core busy all the time).
    out[`gatewayCpuShareAt${c}`] = r2(gwCpuS / seconds);
    out[`requestsAt${c}`] = via.e2e.length;
    out[`directTtfbP50MsAt${c}`] = r2(pct(direct.ttfb, 0.5));
    out[`directTtfbP99MsAt${c}`] = r2(pct(direct.ttfb, 0.99));
    out[`addedTtfbP50MsAt${c}`] = r2(pct(via.ttfb, 0.5) - pct(direct.ttfb, 0.5));
    out[`addedTtfbP99MsAt${c}`] = r2(pct(via.ttfb, 0.99) - pct(direct.ttfb, 0.99));
    out[`addedE2eP50MsAt${c}`] = r2(pct(via.e2e, 0.5) - pct(direct.e2e, 0.5));
    out[`addedE2eP99MsAt${c}`] = r2(pct(via.e2e, 0.99) - pct(direct.e2e, 0.99));
  }
  const oh = await overhead(gw.url);
  out.gatewayOverheadMeanMs = oh.meanMs;
  out.gatewayOverheadP99BucketMs = oh.p99Ms;
  for (const c of children) c.kill();
  children.length = 0;

  // Throughput: 200 chunks per stream, no gaps; chunks per CPU second of the gateway.
  const up2 = await start('upstream', '200', '0');
  const gw2 = await start('gateway', up2.url);
  await load(gw2.url, 50, 1000);
  const c0 = await cpu(gw2.child);
  const t = await load(gw2.url, 50, seconds * 1000);
  const cpuS = (await cpu(gw2.child)) - c0;
  const chunks = t.e2e.length * 204; // role + 200 content + finish + usage + [DONE] events
  out.throughputRequests = t.e2e.length;
  out.chunksPerSecPerCore = Math.round(chunks / cpuS);
  out.gatewayCpuShare = r2(cpuS / seconds);
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  for (const c of children) c.kill();
}
