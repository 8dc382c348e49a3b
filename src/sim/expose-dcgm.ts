/**
 * The NVIDIA DCGM exporter's exposition for one instance: one series per GPU and field, with the
 * exporter's labels (`gpu`, `UUID`, `pci_bus_id`, `device`, `modelName`, `Hostname`,
 * `DCGM_FI_DRIVER_VERSION`), Go number formatting, counters without `_total`. The fields are the
 * default-counters.csv set plus SM activity/occupancy, the throttle-violation counters and the
 * volatile ECC counters (opt-in fields an operator enables; the simulated GPUs have no ECC errors).
 */
import { FamilySet } from './families.js';
import type { Instance } from './fleet.js';
import type { GpuState } from './gpu.js';

const DRIVER = '550.127.05';

type Field = [name: string, type: 'gauge' | 'counter', help: string, get: (g: GpuState) => number];

const FIELDS: Field[] = [
  ['DCGM_FI_DEV_SM_CLOCK', 'gauge', 'SM clock frequency (in MHz).', (g) => g.smClockMHz],
  ['DCGM_FI_DEV_MEM_CLOCK', 'gauge', 'Memory clock frequency (in MHz).', (g) => g.memClockMHz],
  ['DCGM_FI_DEV_MEMORY_TEMP', 'gauge', 'Memory temperature (in C).', (g) => Math.round(g.memTempC)],
  ['DCGM_FI_DEV_GPU_TEMP', 'gauge', 'GPU temperature (in C).', (g) => g.tempRounded],
  ['DCGM_FI_DEV_POWER_USAGE', 'gauge', 'Power draw (in W).', (g) => Math.round(g.powerW * 1000) / 1000],
  ['DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', 'counter', 'Total energy consumption since boot (in mJ).', (g) => Math.round(g.energyMJ)],
  ['DCGM_FI_DEV_PCIE_REPLAY_COUNTER', 'counter', 'Total number of PCIe retries.', () => 0],
  ['DCGM_FI_DEV_GPU_UTIL', 'gauge', 'GPU utilization (in %).', (g) => g.utilPct],
  ['DCGM_FI_DEV_MEM_COPY_UTIL', 'gauge', 'Memory utilization (in %).', (g) => g.memCopyUtilPct],
  ['DCGM_FI_DEV_ENC_UTIL', 'gauge', 'Encoder utilization (in %).', () => 0],
  ['DCGM_FI_DEV_DEC_UTIL', 'gauge', 'Decoder utilization (in %).', () => 0],
  ['DCGM_FI_DEV_XID_ERRORS', 'gauge', 'Value of the last XID error encountered.', (g) => g.lastXid],
  ['DCGM_FI_DEV_FB_FREE', 'gauge', 'Framebuffer memory free (in MiB).', (g) => g.fbFreeMiB],
  ['DCGM_FI_DEV_FB_USED', 'gauge', 'Framebuffer memory used (in MiB).', (g) => g.fbUsedMiB],
  ['DCGM_FI_DEV_FB_RESERVED', 'gauge', 'Framebuffer memory reserved (in MiB).', (g) => g.fbReservedMiB],
  ['DCGM_FI_DEV_VGPU_LICENSE_STATUS', 'gauge', 'vGPU License status', () => 0],
  ['DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS', 'counter', 'Number of remapped rows for uncorrectable errors', () => 0],
  ['DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS', 'counter', 'Number of remapped rows for correctable errors', () => 0],
  ['DCGM_FI_DEV_ROW_REMAP_FAILURE', 'gauge', 'Whether remapping of rows has failed', () => 0],
  ['DCGM_FI_PROF_GR_ENGINE_ACTIVE', 'gauge', 'Ratio of time the graphics engine is active.', (g) => g.grEngineActive],
  ['DCGM_FI_PROF_SM_ACTIVE', 'gauge', 'The ratio of cycles an SM has at least 1 warp assigned.', (g) => g.smActive],
  ['DCGM_FI_PROF_SM_OCCUPANCY', 'gauge', 'The ratio of number of warps resident on an SM.', (g) => g.smOccupancy],
  ['DCGM_FI_PROF_PIPE_TENSOR_ACTIVE', 'gauge', 'Ratio of cycles the tensor (HMMA) pipe is active.', (g) => g.tensorActive],
  ['DCGM_FI_PROF_DRAM_ACTIVE', 'gauge', 'Ratio of cycles the device memory interface is active sending or receiving data.', (g) => g.dramActive],
  ['DCGM_FI_PROF_PCIE_TX_BYTES', 'gauge', 'The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.', (g) => Math.round(g.pcieTxBytesPerS)],
  ['DCGM_FI_PROF_PCIE_RX_BYTES', 'gauge', 'The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.', (g) => Math.round(g.pcieRxBytesPerS)],
  ['DCGM_FI_DEV_POWER_VIOLATION', 'counter', 'Throttling duration due to power constraints (in ns).', (g) => Math.round(g.powerViolationNs)],
  ['DCGM_FI_DEV_THERMAL_VIOLATION', 'counter', 'Throttling duration due to thermal constraints (in ns).', (g) => Math.round(g.thermalViolationNs)],
  ['DCGM_FI_DEV_ECC_SBE_VOL_TOTAL', 'counter', 'Total number of single-bit volatile ECC errors.', () => 0],
  ['DCGM_FI_DEV_ECC_DBE_VOL_TOTAL', 'counter', 'Total number of double-bit volatile ECC errors.', () => 0],
];

const NVLINK: Field = ['DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL', 'counter', 'Total number of NVLink bandwidth counters for all lanes.', (g) => Math.round(g.nvlinkBytes)];

/** Builds the DCGM exporter families of one instance. */
export function dcgmFamilies(inst: Instance): FamilySet {
  const fs = new FamilySet();
  const nvlink = inst.type.gpuCount === 8 && !inst.type.name.startsWith('ml.g');
  for (const [name, type, help, get] of nvlink ? [...FIELDS, NVLINK] : FIELDS) {
    for (const g of inst.gpus) {
      const labels = {
        gpu: String(g.index),
        UUID: g.uuid,
        pci_bus_id: g.pciBusId,
        device: `nvidia${g.index}`,
        modelName: g.spec.modelName,
        Hostname: inst.hostname,
        DCGM_FI_DRIVER_VERSION: DRIVER,
      };
      if (type === 'gauge') fs.gauge(name, help, () => get(g), labels);
      else fs.counter(name, help, () => get(g), labels);
    }
  }
  return fs;
}
