/**
 * The detectors table: one entry per cause id of `CAUSE_IDS` except `none` (which the ranking
 * answers when nothing stands out). The README's detectors table is written from `looksAt`.
 */
import type { Detector } from '../detector.js';
import { azTrafficSkew } from './az-traffic.js';
import { coldStartStorm } from './cold-start.js';
import { engineErrors, rateLimitBurst } from './errors.js';
import { gpuMemorySaturation } from './gpu-memory.js';
import { kvCachePressure } from './kv-cache.js';
import { load, platformOverhead } from './platform.js';
import { promptLengthShift } from './prompt-length.js';
import { qualityDrift } from './quality.js';
import { slowInstance } from './slow-instance.js';
import { throughputBelowBenchmark } from './throughput.js';

/** Every detector, in the order of `CAUSE_IDS`. */
export const DETECTORS: readonly Detector[] = [
  kvCachePressure,
  gpuMemorySaturation,
  azTrafficSkew,
  coldStartStorm,
  promptLengthShift,
  slowInstance,
  rateLimitBurst,
  engineErrors,
  throughputBelowBenchmark,
  qualityDrift,
  platformOverhead,
  load,
];
