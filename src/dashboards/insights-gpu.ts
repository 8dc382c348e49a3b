/**
 * Insights, GPUs: what the host exporter (DCGM's `gpu_*`) says per instance. A table with one row
 * per instance (utilization, memory used and total, temperature, SM clock, throttling, XID and ECC
 * errors) and the same signals over time. GPU series carry no component or engine, only the
 * instance's labels, so they follow an endpoint, AZ or hex-cell selection (`host` scope).
 */
import { increase, rate, sel, sumBy } from './queries.js';
import type { Panel, Row, Threshold } from './types.js';

const R = '$__range';

/** Framebuffer in total per instance: DCGM reports used, free and reserved (they add up to the total); Triton reports the total. */
const MEMORY_TOTAL = `${sumBy(['instance'], sel('gpu_memory_total_bytes'))} or (${sumBy(['instance'], sel('gpu_memory_used_bytes'))} + ${sumBy(['instance'], sel('gpu_memory_free_bytes'))} + (${sumBy(['instance'], sel('gpu_memory_reserved_bytes'))} or 0 * ${sumBy(['instance'], sel('gpu_memory_used_bytes'))}))`;
const MEMORY_USED = sumBy(['instance'], sel('gpu_memory_used_bytes'));

/** An engine reserves about 90 % of GPU memory on purpose; a full framebuffer is the CUDA-OOM risk. */
const MEMORY_STEPS: readonly Threshold[] = [
  { value: 0.95, state: 'warning' },
  { value: 0.98, state: 'critical' },
];
/** Data-centre GPUs slow down from the mid-80s °C. */
const TEMPERATURE_STEPS: readonly Threshold[] = [
  { value: 80, state: 'warning' },
  { value: 87, state: 'critical' },
];
/** Share of time a GPU's clocks were held down. */
const THROTTLE_STEPS: readonly Threshold[] = [
  { value: 0.05, state: 'warning' },
  { value: 0.25, state: 'critical' },
];
/** Any XID or uncorrectable ECC error is a GPU that needs a look. */
const ERROR_STEPS: readonly Threshold[] = [{ value: 1, state: 'critical' }];

/** The throttled share of the worst GPU of each instance, by reason (power, thermal, ...). */
const throttleByReason = `max by (instance, reason) (${rate('gpu_throttle_seconds_total')})`;

const GPU_TABLE: Panel = {
  id: 'gpu-instances',
  title: 'GPUs per instance',
  description:
    'One row per instance from its GPU exporter: GPUs, mean utilization, framebuffer used and in total, the hottest GPU, the slowest SM clock, the most throttled GPU, the last XID error code and ECC errors over the range.',
  viz: 'table',
  unit: 'none',
  queries: [
    { refId: 'gpus', title: 'GPUs', unit: 'count', expr: `count by (instance, instance_type, az) (${sel('gpu_utilization_ratio')})`, instant: true },
    { refId: 'utilization', title: 'Utilization', unit: 'ratio', expr: `avg by (instance) (${sel('gpu_utilization_ratio')})`, instant: true },
    { refId: 'memory_used', title: 'Memory used', unit: 'bytes', expr: MEMORY_USED, instant: true },
    { refId: 'memory_total', title: 'Memory total', unit: 'bytes', expr: MEMORY_TOTAL, instant: true },
    { refId: 'memory_share', title: 'Memory used (share)', unit: 'ratio', expr: `${MEMORY_USED} / (${MEMORY_TOTAL})`, instant: true, thresholds: MEMORY_STEPS },
    { refId: 'temperature', title: 'Temperature (max)', unit: 'celsius', expr: `max by (instance) (${sel('gpu_temperature_celsius')})`, instant: true, thresholds: TEMPERATURE_STEPS },
    { refId: 'sm_clock', title: 'SM clock (min)', unit: 'hertz', expr: `min by (instance) (${sel('gpu_sm_clock_hertz')})`, instant: true },
    { refId: 'throttled', title: 'Throttled (worst GPU)', unit: 'ratio', expr: `max by (instance) (${throttleByReason})`, instant: true, thresholds: THROTTLE_STEPS },
    { refId: 'xid', title: 'Last XID', unit: 'none', expr: `max by (instance) (${sel('gpu_last_xid_error')})`, instant: true, thresholds: ERROR_STEPS },
    {
      refId: 'ecc',
      title: 'ECC errors (double-bit)',
      unit: 'count',
      expr: sumBy(['instance'], increase('gpu_ecc_errors_total', R, 'severity="double_bit"')),
      instant: true,
      thresholds: ERROR_STEPS,
    },
  ],
  joinOn: ['instance'],
  width: 24,
  height: 8,
  emptyHint: 'Needs a GPU exporter per instance (NVIDIA DCGM exporter); ECC and throttle columns need its opt-in fields.',
};

/** A per-instance time series of the GPU row. */
function gpuSeries(id: string, title: string, description: string, unit: Panel['unit'], queries: Panel['queries'], thresholds?: readonly Threshold[]): Panel {
  return { id, title, description, viz: 'timeseries', unit, queries, ...(thresholds === undefined ? {} : { thresholds }), width: 8, height: 8, emptyHint: 'Needs a GPU exporter per instance (NVIDIA DCGM exporter).' };
}

const PANELS: readonly Panel[] = [
  gpuSeries('gpu-utilization', 'GPU utilization', 'Mean share of time a kernel ran on the GPUs of each instance. Low utilization while requests queue points at the engine, not the GPU.', 'ratio', [
    { refId: 'A', legend: '{{instance}}', expr: `avg by (instance) (${sel('gpu_utilization_ratio')})` },
  ]),
  gpuSeries('gpu-memory', 'GPU memory', 'Framebuffer in use on each instance against its total (dashed). Engines reserve most of it for the KV cache on purpose; used memory at the total is the CUDA-OOM risk.', 'bytes', [
    { refId: 'used', legend: '{{instance}} used', expr: MEMORY_USED },
    { refId: 'total', legend: '{{instance}} total', expr: MEMORY_TOTAL, reference: true },
  ]),
  gpuSeries('gpu-temperature', 'GPU temperature', 'The hottest GPU of each instance. A GPU that runs hot under ordinary load has a cooling problem and will throttle.', 'celsius', [
    { refId: 'A', legend: '{{instance}}', expr: `max by (instance) (${sel('gpu_temperature_celsius')})` },
  ], TEMPERATURE_STEPS),
  gpuSeries('gpu-sm-clock', 'SM clock', 'The slowest SM clock of each instance. A clock well below its siblings under the same load is a throttled GPU: see the throttle reasons beside it.', 'hertz', [
    { refId: 'A', legend: '{{instance}}', expr: `min by (instance) (${sel('gpu_sm_clock_hertz')})` },
  ]),
  gpuSeries('gpu-throttling', 'Throttle reasons', 'Share of time the clocks of the most throttled GPU of each instance were held down, by reason (power, thermal, ...).', 'ratio', [
    { refId: 'A', legend: '{{instance}} {{reason}}', expr: throttleByReason },
  ], THROTTLE_STEPS),
  gpuSeries('gpu-errors', 'XID and ECC errors', 'The last XID error code per instance (0: none) and ECC errors per second by severity. An XID such as 48 (double-bit ECC) or 79 (fallen off the bus) means the GPU needs service.', 'none', [
    { refId: 'xid', legend: '{{instance}} last XID', expr: `max by (instance) (${sel('gpu_last_xid_error')})` },
    { refId: 'ecc', legend: '{{instance}} ECC {{severity}}/s', expr: sumBy(['instance', 'severity'], rate('gpu_ecc_errors_total')) },
  ], ERROR_STEPS),
];

/** The GPU row. */
export const GPU_ROW: Row = { id: 'gpu', title: 'GPUs', panels: [GPU_TABLE, ...PANELS] };
