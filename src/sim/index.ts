/**
 * Public surface of `src/sim`: the fleet simulator. Imports only `model`, `wire` and `semconv`
 * (and Node built-ins); never storage, tsdb, promql, ingest or server.
 */
export { startSimulation, type RunningSimulation, type StartSimulationOptions } from './start.js';
export { Simulation, type RequestParams, type SimulationOptions } from './simulation.js';
export { SCENARIO_LIMITS, ScenarioFileError, parseScenarioSpec } from './spec-parse.js';
export type { TargetMetricsResponse } from './target-metrics.js';
export { SCENARIOS, AZS, demoFleet, demoScenario, isScenarioName, largeFleet, scenarioByName } from './scenarios.js';
export { FAULT_DEFAULTS, type GroundTruthEntry } from './faults.js';
export { simApiHandlers, parseFaultRequest, type SimApiHandlers, type SimHandler } from './api.js';
export { HONOR_LABELS_JOBS, TargetRegistry, fileSdGroups, type FileSdGroup, type SimTarget, type TargetKind } from './targets.js';
export { handleSimRequest, type SimHttpContext } from './http.js';
export { INSTANCE_TYPES, GPUS, instanceType, type GpuSpec, type InstanceTypeSpec } from './data/instance-types.js';
export { MODELS, kvBytesPerToken, modelSpec, type ModelSpec } from './data/models.js';
export { ENGINE_DEFAULTS, benchmarkOutputTokensPerSec, buildPerfModel, stepTime, type PerfModel } from './perf.js';
export { Rng } from './rng.js';
export type { Arrival } from './load.js';
export type { ComponentRuntime } from './fleet.js';
export { DEFAULT_TRUTH_CAPACITY, LatencyLog, LatencyTruth, exactQuantile, type TruthKind, type TruthSample } from './latency-truth.js';
export {
  FAULT_KINDS,
  type AutoscalingSpec,
  type ComponentSpec,
  type EndpointSpec,
  type EngineKind,
  type FaultKind,
  type FaultScope,
  type FaultSpec,
  type FleetSpec,
  type LengthDistribution,
  type LoadSpec,
  type ScenarioSpec,
} from './spec.js';
export { SIM_JUDGE_MODEL, SIM_JUDGE_VARIANTS } from './judge.js';
