/**
 * One GPU as the DCGM exporter sees it. Its gauges follow the work of the replica on it: busy time
 * drives utilization, the compute-bound share drives SM and tensor activity, the memory-bound share
 * DRAM activity; power follows activity, temperature follows power with a first-order lag, energy
 * integrates power, and a throttled GPU runs slow clocks, hot, and counts thermal violation time.
 */
import type { GpuSpec } from './data/instance-types.js';

/** The work a GPU did during one tick. */
export interface GpuWork {
  /** Seconds busy, and their compute- and memory-bound parts. */
  busyS: number;
  computeS: number;
  memoryS: number;
  /** GPU memory in use by the engine and by anything else, MiB. */
  engineMiB: number;
  foreignMiB: number;
  /** Weights are loading over PCIe; tensor parallelism traffic over NVLink. */
  loadingWeights: boolean;
  tensorParallel: boolean;
  throttled: boolean;
}

const AMBIENT_C = 28;
const THERMAL_TAU_S = 45;
/** DCGM reports activity averaged over its sampling period (about a second), not per kernel. */
const SAMPLE_TAU_S = 1;

/** The DCGM-visible state of one GPU. */
export class GpuState {
  utilPct = 0;
  memCopyUtilPct = 0;
  grEngineActive = 0;
  smActive = 0;
  smOccupancy = 0;
  tensorActive = 0;
  dramActive = 0;
  powerW: number;
  tempC = AMBIENT_C + 6;
  memTempC = AMBIENT_C + 9;
  energyMJ = 0;
  smClockMHz: number;
  memClockMHz: number;
  powerViolationNs = 0;
  thermalViolationNs = 0;
  fbUsedMiB = 0;
  fbFreeMiB: number;
  readonly fbReservedMiB: number;
  pcieTxBytesPerS = 0;
  pcieRxBytesPerS = 0;
  nvlinkBytes = 0;
  lastXid = 0;
  private busyAvg = 0;
  private computeAvg = 0;

  /** A GPU at rest. */
  constructor(
    readonly spec: GpuSpec,
    readonly index: number,
    readonly uuid: string,
    readonly pciBusId: string,
  ) {
    this.powerW = spec.idlePowerW;
    this.smClockMHz = spec.smIdleClockMHz;
    this.memClockMHz = spec.memClockMHz;
    this.fbReservedMiB = Math.round(spec.memoryMiB * 0.02);
    this.fbFreeMiB = spec.memoryMiB - this.fbReservedMiB;
  }

  /** Moves the gauges over one tick of `dtS` seconds of `w`. */
  update(dtS: number, w: GpuWork): void {
    const s = this.spec;
    const a = 1 - Math.exp(-dtS / SAMPLE_TAU_S);
    const parts = w.computeS + w.memoryS;
    this.busyAvg += (Math.min(1, w.busyS / dtS) - this.busyAvg) * a;
    this.computeAvg += ((parts > 0 ? w.computeS / parts : 0) - this.computeAvg) * a;
    const busy = this.busyAvg;
    const computeShare = this.computeAvg;
    const memShare = 1 - computeShare;
    this.utilPct = Math.round(100 * busy * 0.98);
    this.grEngineActive = busy * 0.95;
    this.smActive = busy * (0.25 + 0.7 * computeShare);
    this.smOccupancy = this.smActive * 0.5;
    this.tensorActive = busy * computeShare * 0.7;
    this.dramActive = busy * memShare * 0.8;
    this.memCopyUtilPct = Math.round(100 * this.dramActive);
    const want = s.idlePowerW + (s.maxPowerW - s.idlePowerW) * (0.3 * busy + 0.5 * this.smActive + 0.2 * this.dramActive);
    const cap = w.throttled ? 0.6 * s.maxPowerW : s.maxPowerW;
    if (want > cap) this.powerViolationNs += dtS * 1e9;
    this.powerW = Math.min(want, cap);
    this.energyMJ += this.powerW * dtS * 1000;
    // A throttled GPU is one whose cooling fails: it runs hot whatever the load.
    const target = AMBIENT_C + 50 * (this.powerW / s.maxPowerW) + (w.throttled ? 32 : 0);
    const k = 1 - Math.exp(-dtS / THERMAL_TAU_S);
    this.tempC += (target - this.tempC) * k;
    this.memTempC += (target + 4 - this.memTempC) * k;
    if (w.throttled) this.thermalViolationNs += dtS * 1e9;
    const loaded = busy > 0.02 || w.loadingWeights;
    this.smClockMHz = Math.round(w.throttled ? s.smClockMHz * 0.45 : loaded ? s.smClockMHz : s.smIdleClockMHz);
    this.memClockMHz = loaded || w.engineMiB > 0 ? s.memClockMHz : Math.round(s.memClockMHz * 0.06);
    const usable = s.memoryMiB - this.fbReservedMiB;
    this.fbUsedMiB = Math.round(Math.min(usable, w.engineMiB + w.foreignMiB + 1));
    this.fbFreeMiB = usable - this.fbUsedMiB;
    this.pcieRxBytesPerS = w.loadingWeights ? 2.5e9 : busy * 4e6;
    this.pcieTxBytesPerS = busy * 2e6;
    if (w.tensorParallel) this.nvlinkBytes += busy * 20e9 * dtS;
  }

  /** Temperature rounded as DCGM reports it (integer °C). */
  get tempRounded(): number {
    return Math.round(this.tempC);
  }
}
