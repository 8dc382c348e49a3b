/**
 * Wiring of the gateway (src/gateway) into the product: an `Appendable` that waits for the
 * embedded store to open, the pool configuration derived from a running simulation's replica
 * targets (for `infersight demo`), and the options `startServer` takes for it.
 */
import { startGateway, validateGatewayConfig, type GatewayConfig, type RunningGateway, type SampleSink } from '../gateway/index.js';
import type { RequestGuard } from '../http/index.js';
import type { Clock, Logger } from '../model/index.js';
import type { SimTarget } from '../sim/index.js';
import { StorageError, StorageErrorCode, type Appendable } from '../storage/index.js';

/** The gateway part of `ServeOptions`. */
export interface ServerGatewayOptions {
  readonly config: GatewayConfig;
  /** Overrides `config.listen`. */
  readonly listen?: string;
  /**
   * When false, a busy listen address falls back to a free port with a warning (the demo's
   * default port); when true (an address the user gave), it is an error.
   */
  readonly listenRequired?: boolean;
  /** Where sampled requests go (the server binds the quality pipeline's port here); the gateway's own default when absent. */
  readonly sampleSink?: SampleSink | null;
}

/** Starts the gateway for `startServer`, writing into `appendable`, behind the server's request guard (credentials, TLS, browser safety). */
export async function startServerGateway(o: ServerGatewayOptions, appendable: Appendable, logger: Logger, clock: Clock, guard?: RequestGuard): Promise<RunningGateway> {
  const start = (listen: string | undefined): Promise<RunningGateway> => startGateway({ config: o.config, listen, appendable, logger, now: clock, guard, ...(o.sampleSink === undefined ? {} : { sampleSink: o.sampleSink }) });
  try {
    return await start(o.listen);
  } catch (e) {
    if (o.listenRequired !== false || (e as { code?: string }).code !== 'EADDRINUSE') throw e;
    const wanted = o.listen ?? o.config.listen;
    const fallback = `${wanted.slice(0, wanted.lastIndexOf(':'))}:0`;
    logger.warn('gateway: the listen address is busy; using a free port', { listen: wanted });
    return start(fallback);
  }
}

/** An `Appendable` over a store that may not be open yet: appenders throw `ERR_STORAGE_UNAVAILABLE` until it is. */
export function deferredAppendable(get: () => Appendable | null): Appendable {
  return {
    appender: () => {
      const a = get();
      if (a === null) throw new StorageError(StorageErrorCode.UNAVAILABLE, 'the store is not open yet');
      return a.appender();
    },
  };
}

/** The simulator's `job` (engine exposition flavour) as the catalog's `engine` value. */
const ENGINE_OF_JOB: Readonly<Record<string, string>> = { vllm: 'vllm', sglang: 'sglang', 'djl-lmi': 'djl' };

/**
 * The `models` section for a gateway in front of a simulation's replicas: one model per simulated
 * model, one replica per engine target (`<simUrl>/targets/<id>`), with the target's identity labels
 * and `engine` named from its job. Replicas still loading are listed; health checks keep them out
 * until their engine answers.
 */
export function gatewayModelsFromSim(targets: readonly SimTarget[], simUrl: string, perModel: Readonly<Record<string, unknown>> = {}): Record<string, unknown>[] {
  const byModel = new Map<string, Record<string, unknown>[]>();
  for (const t of targets) {
    if (t.kind !== 'engine') continue;
    const l = t.labels;
    const list = byModel.get(l.model) ?? [];
    byModel.set(l.model, list);
    list.push({
      url: `${simUrl}/targets/${encodeURIComponent(t.id)}`,
      labels: { endpoint: l.endpoint, component: l.component, replica: l.replica, instance: l.instance, instance_type: l.instance_type, az: l.az, engine: ENGINE_OF_JOB[l.job] ?? l.job },
    });
  }
  return [...byModel.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, replicas]) => {
    const component = targets.find((t) => t.kind === 'engine' && t.labels.model === name)?.labels.component;
    return { name, ...(component !== undefined && component !== name ? { aliases: [component] } : {}), ...perModel, replicas };
  });
}

/** A gateway configuration in front of a simulation, with `rest` (snake_case, as in YAML) for everything else. */
export function gatewayConfigForSim(targets: readonly SimTarget[], simUrl: string, rest: Readonly<Record<string, unknown>> = {}, perModel: Readonly<Record<string, unknown>> = {}): GatewayConfig {
  return validateGatewayConfig({ ...rest, models: gatewayModelsFromSim(targets, simUrl, perModel) });
}
