/** Test helpers: small hand-made scenarios for controlled experiments. */
import type { EngineKind, FaultSpec, LoadSpec, ScenarioSpec } from '../spec.js';

/** One vLLM/SGLang/DJL replica of Llama-3.1-8B on one ml.g6.xlarge (L4), fixed lengths, flat Poisson load. */
export function singleReplica(engine: EngineKind, ratePerSec: number, load: Partial<LoadSpec> = {}, faults: FaultSpec[] = []): ScenarioSpec {
  return {
    name: 'test',
    description: 'one replica',
    durationMs: 3_600_000,
    faults,
    fleet: {
      endpoints: [
        {
          name: 'ep',
          instanceType: 'ml.g6.xlarge',
          instances: { initial: 1, max: 1 },
          azs: ['az-1'],
          components: [
            {
              name: 'c',
              model: 'meta-llama/Llama-3.1-8B-Instruct',
              engine,
              gpusPerCopy: 1,
              copies: { initial: 1, min: 1, max: 1 },
              maxModelLen: 8192,
              load: { ratePerSec, diurnalAmplitude: 0, diurnalPeriodMs: 86_400_000, prompt: { kind: 'fixed', value: 200 }, output: { kind: 'fixed', value: 100 }, ...load },
            },
          ],
        },
      ],
    },
  };
}
