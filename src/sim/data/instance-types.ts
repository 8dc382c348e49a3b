/**
 * GPU instance types the simulator can place replicas on: GPU count and model, memory, an
 * approximate on-demand hourly price (SageMaker, us-east-1 list prices rounded; for demos and
 * cost views, not for billing), and the GPU's performance envelope that drives the engine model.
 */

/** One GPU model's performance envelope. */
export interface GpuSpec {
  /** DCGM's `modelName` label value. */
  readonly modelName: string;
  /** Framebuffer as DCGM reports it (FB_FREE + FB_USED + FB_RESERVED), MiB. */
  readonly memoryMiB: number;
  /** Dense BF16 tensor throughput, TFLOP/s. */
  readonly bf16Tflops: number;
  /** Memory bandwidth, GB/s. */
  readonly memoryBandwidthGBps: number;
  /** Board power limit and idle draw, W. */
  readonly maxPowerW: number;
  readonly idlePowerW: number;
  /** SM clock at boost and at idle, memory clock; MHz. */
  readonly smClockMHz: number;
  readonly smIdleClockMHz: number;
  readonly memClockMHz: number;
}

/** The GPU models used by the instance types below. */
export const GPUS = {
  A10G: { modelName: 'NVIDIA A10G', memoryMiB: 23028, bf16Tflops: 70, memoryBandwidthGBps: 600, maxPowerW: 300, idlePowerW: 58, smClockMHz: 1710, smIdleClockMHz: 210, memClockMHz: 6251 },
  L4: { modelName: 'NVIDIA L4', memoryMiB: 23034, bf16Tflops: 121, memoryBandwidthGBps: 300, maxPowerW: 72, idlePowerW: 16, smClockMHz: 2040, smIdleClockMHz: 210, memClockMHz: 6251 },
  L40S: { modelName: 'NVIDIA L40S', memoryMiB: 46068, bf16Tflops: 362, memoryBandwidthGBps: 864, maxPowerW: 350, idlePowerW: 36, smClockMHz: 2520, smIdleClockMHz: 210, memClockMHz: 9001 },
  A100_40: { modelName: 'NVIDIA A100-SXM4-40GB', memoryMiB: 40960, bf16Tflops: 312, memoryBandwidthGBps: 1555, maxPowerW: 400, idlePowerW: 55, smClockMHz: 1410, smIdleClockMHz: 210, memClockMHz: 1215 },
  A100_80: { modelName: 'NVIDIA A100-SXM4-80GB', memoryMiB: 81920, bf16Tflops: 312, memoryBandwidthGBps: 2039, maxPowerW: 400, idlePowerW: 60, smClockMHz: 1410, smIdleClockMHz: 210, memClockMHz: 1593 },
  H100: { modelName: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559, bf16Tflops: 989, memoryBandwidthGBps: 3350, maxPowerW: 700, idlePowerW: 70, smClockMHz: 1980, smIdleClockMHz: 345, memClockMHz: 2619 },
} as const satisfies Record<string, GpuSpec>;

/** One instance type: its GPUs and price. */
export interface InstanceTypeSpec {
  readonly name: string;
  readonly gpuCount: number;
  readonly gpu: GpuSpec;
  /** Approximate on-demand price, USD per hour. */
  readonly pricePerHourUsd: number;
  readonly vcpus: number;
  readonly memoryGiB: number;
}

const t = (name: string, gpuCount: number, gpu: GpuSpec, pricePerHourUsd: number, vcpus: number, memoryGiB: number): InstanceTypeSpec => ({
  name,
  gpuCount,
  gpu,
  pricePerHourUsd,
  vcpus,
  memoryGiB,
});

/** The instance type catalog, keyed by name. */
export const INSTANCE_TYPES: Readonly<Record<string, InstanceTypeSpec>> = Object.fromEntries(
  [
    t('ml.g5.xlarge', 1, GPUS.A10G, 1.408, 4, 16),
    t('ml.g5.2xlarge', 1, GPUS.A10G, 1.515, 8, 32),
    t('ml.g5.12xlarge', 4, GPUS.A10G, 7.09, 48, 192),
    t('ml.g5.48xlarge', 8, GPUS.A10G, 20.36, 192, 768),
    t('ml.g6.xlarge', 1, GPUS.L4, 1.167, 4, 16),
    t('ml.g6.4xlarge', 1, GPUS.L4, 1.943, 16, 64),
    t('ml.g6.12xlarge', 4, GPUS.L4, 6.622, 48, 192),
    t('ml.g6e.xlarge', 1, GPUS.L40S, 2.336, 4, 32),
    t('ml.g6e.12xlarge', 4, GPUS.L40S, 13.12, 48, 384),
    t('ml.p4d.24xlarge', 8, GPUS.A100_40, 37.688, 96, 1152),
    t('ml.p4de.24xlarge', 8, GPUS.A100_80, 47.11, 96, 1152),
    t('ml.p5.48xlarge', 8, GPUS.H100, 113.07, 192, 2048),
  ].map((x) => [x.name, x]),
);

/** Looks up an instance type or throws naming the known ones. */
export function instanceType(name: string): InstanceTypeSpec {
  const it = INSTANCE_TYPES[name] as InstanceTypeSpec | undefined;
  if (it === undefined) throw new Error(`sim: unknown instance type ${JSON.stringify(name)} (known: ${Object.keys(INSTANCE_TYPES).join(', ')})`);
  return it;
}
