/**
 * Public surface of `src/gateway`: the OpenAI-compatible front door that measures what clients
 * feel (TTFT, inter-chunk latency, overhead, error classes) and writes it through an `Appendable`.
 */
export { startGateway, type GatewayOptions, type RunningGateway } from './server.js';
export { REPLICA_LABELS, loadGatewayConfigFile, parseGatewayConfig, validateGatewayConfig, type GatewayConfig, type ModelConfig, type ReplicaConfig } from './config.js';
export { GATEWAY_ERRORS, GatewayConfigError, GatewayErrorCode, OPENAI_ERRORS, type OpenAiErrorCode } from './errors.js';
export { GATEWAY_JOB } from './buckets.js';
export { GATEWAY_METRICS } from './instruments.js';
export { JsonlFileSink, MemorySampleSink, Sampler, type GatewaySample, type SampleSink } from './sampling.js';
export { MetricsRegistry } from './metrics.js';
export type { ModelPool, Replica } from './pool.js';
export type { HealthProbe } from './health.js';
export { systemTimers, type Timers } from './timers.js';
