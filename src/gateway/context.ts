/** The ports and state every request of one gateway shares (`proxy.ts`, `outcome.ts`). */
import type http from 'node:http';
import type { Clock, Logger } from '../model/index.js';
import type { GatewayConfig } from './config.js';
import type { ScopeInstruments } from './instruments.js';
import type { EjectionReason, ModelPool, Replica } from './pool.js';
import type { SampleSink, Sampler } from './sampling.js';
import type { Timers } from './timers.js';

/** What every exchange shares: configuration, pools, ports. */
export interface ProxyContext {
  config(): GatewayConfig;
  pool(model: string): ModelPool | undefined;
  /** The scope of requests that name no known model. */
  readonly unscoped: ScopeInstruments;
  readonly agent: http.Agent;
  readonly now: Clock;
  /** A monotonic clock in (fractional) milliseconds, for latencies. */
  readonly monotonic: () => number;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly sampler: Sampler;
  readonly sink: SampleSink | null;
  /** Told when a replica is ejected (metrics, logs). */
  ejected(r: Replica, reason: EjectionReason): void;
}
