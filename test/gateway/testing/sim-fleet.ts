/** Helpers for gateway tests against the simulator: a small three-AZ fleet and the gateway in front of it. */
import { startGateway, validateGatewayConfig, type RunningGateway } from '../../../src/gateway/index.js';
import { MemorySampleSink } from '../../../src/gateway/index.js';
import { MemoryStorage } from '../../../src/storage/testing/index.js';
import { gatewayModelsFromSim } from '../../../src/server/gateway.js';
import type { RunningSimulation, ScenarioSpec } from '../../../src/sim/index.js';

/** The model every replica serves. */
export const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
/** The three AZs, one replica each. */
export const AZS3 = ['az-a', 'az-b', 'az-c'];

/**
 * One vLLM component of Llama-3.1-8B with three replicas on three ml.g6.xlarge (L4) instances,
 * one per AZ, and no load of its own: every request comes from the test. Answers run to 200 tokens
 * (or the request's max_tokens).
 */
export function threeAzScenario(): ScenarioSpec {
  return {
    name: 'gateway-test',
    description: 'three replicas in three AZs, no internal load',
    durationMs: 3_600_000,
    faults: [],
    fleet: {
      endpoints: [
        {
          name: 'ep',
          instanceType: 'ml.g6.xlarge',
          instances: { initial: 3, max: 3 },
          azs: AZS3,
          components: [
            {
              name: 'llama',
              model: MODEL,
              engine: 'vllm',
              gpusPerCopy: 1,
              copies: { initial: 3, min: 3, max: 3 },
              maxModelLen: 8192,
              load: { ratePerSec: 0, diurnalAmplitude: 0, diurnalPeriodMs: 86_400_000, prompt: { kind: 'fixed', value: 200 }, output: { kind: 'fixed', value: 200 } },
            },
          ],
        },
      ],
    },
  };
}

/** Advances a manual simulation until every replica is ready. */
export async function untilReady(run: RunningSimulation): Promise<void> {
  for (let i = 0; i < 3600 && !run.simulation.fleet.replicas.every((r) => r.ready); i++) await run.advanceTo(run.simulation.nowMs + 1000);
  if (!run.simulation.fleet.replicas.every((r) => r.ready)) throw new Error('the simulated replicas never became ready');
}

/** A gateway in front of `run`'s replicas with `rest` settings (snake_case), an in-memory store and sample sink. */
export async function gatewayForSim(run: RunningSimulation, rest: Record<string, unknown> = {}, perModel: Record<string, unknown> = {}): Promise<{ gw: RunningGateway; store: MemoryStorage; samples: MemorySampleSink }> {
  const store = new MemoryStorage();
  const samples = new MemorySampleSink();
  const config = validateGatewayConfig({ health_check: { enabled: false }, ...rest, models: gatewayModelsFromSim(run.targets(), run.url, perModel) });
  const gw = await startGateway({ config, appendable: store, listen: '127.0.0.1:0', sampleSink: samples });
  return { gw, store, samples };
}
