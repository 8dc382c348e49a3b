/**
 * The demo's real clients: a bounded share of the simulated load generator's arrivals is taken
 * from the simulated front door (`Simulation.divertArrival`) and sent as HTTP requests through the
 * gateway, which forwards them to the replicas' own OpenAI endpoints. The rest stays internal, so
 * the simulated front door (`job="sim-frontdoor"`) and the gateway (`job="gateway"`) together
 * count every request once. Diverted requests are capped in real time (the simulation may run
 * many times faster than the wall clock) and in concurrency; they mix streaming and non-streaming.
 */
import http from 'node:http';
import type { Clock, Logger } from '../model/index.js';
import { Rng, type Arrival, type ComponentRuntime } from '../sim/index.js';

/** Options of `DemoLoad`. */
export interface DemoLoadOptions {
  /** Base URL of the gateway (`http://host:port`). */
  readonly gatewayUrl: string;
  /** Share of generated arrivals offered to the gateway (default 0.25). */
  readonly share?: number;
  /** Most requests per real second (default 10). */
  readonly maxPerSec?: number;
  /** Most requests in flight (default 64). */
  readonly maxInFlight?: number;
  /** Share of requests that stream (default 0.7). */
  readonly streamShare?: number;
  readonly seed?: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

const FILLER = 'The fleet serves tokens from GPUs across three zones while the cache fills and drains. '.repeat(700);

/** Sends diverted arrivals through the gateway. */
export class DemoLoad {
  /** Requests sent, answered (any status) and failed (no answer). */
  sent = 0;
  answered = 0;
  failed = 0;
  private inFlight = 0;
  private tokens: number;
  private lastMs: number;
  private closed = false;
  private readonly rng: Rng;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly url: URL;

  /** A load that sends to `o.gatewayUrl`. */
  constructor(private readonly o: DemoLoadOptions) {
    this.rng = new Rng(o.seed ?? 7);
    this.tokens = o.maxPerSec ?? 10;
    this.lastMs = o.clock();
    this.url = new URL(o.gatewayUrl);
  }

  /** The `divertArrival` hook: true when the arrival was taken and sent to the gateway. */
  readonly divert = (c: ComponentRuntime, a: Arrival): boolean => {
    if (this.closed || this.rng.next() >= (this.o.share ?? 0.25) || this.inFlight >= (this.o.maxInFlight ?? 64)) return false;
    const max = this.o.maxPerSec ?? 10;
    const now = this.o.clock();
    this.tokens = Math.min(max, this.tokens + ((now - this.lastMs) / 1000) * max);
    this.lastMs = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    this.send(c.model.name, a, this.rng.next() < (this.o.streamShare ?? 0.7));
    return true;
  };

  private send(model: string, a: Arrival, stream: boolean): void {
    // The simulated engines count a prompt as (characters + 16 per message) / 4 tokens.
    const content = FILLER.slice(0, Math.max(1, Math.min(FILLER.length, a.promptTokens * 4 - 16)));
    const body = JSON.stringify({ model, messages: [{ role: 'user', content }], max_tokens: a.maxTokens, stream });
    this.sent++;
    this.inFlight++;
    let done = false;
    const end = (ok: boolean): void => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (ok) this.answered++;
      else this.failed++;
    };
    const req = http.request(
      { agent: this.agent, host: this.url.hostname, port: this.url.port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => end(true));
        res.on('error', () => end(false));
        res.on('close', () => end(res.complete));
      },
    );
    req.on('error', (e) => {
      if (!this.closed) this.o.logger.debug('demo: a request through the gateway failed', { err: e.message });
      end(false);
    });
    req.end(body);
  }

  /** Stops sending and cuts the requests in flight. */
  close(): void {
    this.closed = true;
    this.agent.destroy();
  }
}
