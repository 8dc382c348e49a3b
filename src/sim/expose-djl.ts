/**
 * DJL Serving / LMI's native exposition (`SERVING_PROMETHEUS=true`, Prometheus Java client): generic
 * CamelCase names, latencies in microseconds, per-model metrics with a `Model` label, server
 * metrics without. The reference lists no bucket layout; the simulator's is in buckets.ts.
 */
import { FamilySet } from './families.js';
import type { Histogram } from './histogram.js';
import type { Replica } from './replica.js';
import type { EngineStats } from './stats.js';

const SERVER = { Model: '' };
const US = 1e6;

/** Builds the families of one DJL/LMI replica. */
export function djlFamilies(r: Replica): FamilySet {
  const fs = new FamilySet({ Model: r.component.model.name });
  const s = (): EngineStats => r.stats!;
  let lastSteps = 0;
  let lastSeqSteps = 0;
  let lastStats: EngineStats | undefined;
  let batch = 0;
  fs.counter('DJLServingStart_total', 'Server startup', () => 1, SERVER);
  fs.gauge('StartupLatency', 'Server startup latency (microseconds)', () => r.timings.startupS * US, SERVER);
  fs.counter('Response_2XX_total', 'Number of 2xx responses', () => s().http2xx, SERVER);
  fs.counter('Response_4XX_total', 'Number of 4xx responses', () => s().http4xx, SERVER);
  fs.counter('Response_5XX_total', 'Number of 5xx responses', () => s().http5xx, SERVER);
  fs.counter('ServerError_total', 'Number of requests failed by an unknown exception', () => s().finishedAbort, SERVER);
  fs.counter('WlmError_total', 'Number of requests failed by exceeding the job queue limit', () => 0, SERVER);
  fs.gauge('DownloadModel', 'Model download latency (microseconds)', () => r.timings.downloadS * US);
  fs.gauge('LoadModel', 'Model load latency (microseconds)', () => r.timings.loadS * US);
  fs.gauge('RollingBatchSize', 'Average rolling batch size', () => {
    const st = s();
    if (st !== lastStats) {
      lastStats = st;
      lastSteps = lastSeqSteps = 0;
    }
    if (st.steps > lastSteps) batch = (st.seqSteps - lastSeqSteps) / (st.steps - lastSteps);
    lastSteps = st.steps;
    lastSeqSteps = st.seqSteps;
    return batch;
  });
  const h = (name: string, help: string, pick: (st: EngineStats) => Histogram | null) => {
    const first = pick(s());
    if (first !== null) fs.histogram(name, help, first.upper, () => pick(s()), { scale: US });
  };
  h('QueueTime', 'Time spent waiting in the job queue (microseconds)', (x) => x.h.queue);
  h('RequestLatency', 'Request latency (microseconds)', (x) => x.h.e2e);
  h('Inference', 'Inference latency (microseconds)', (x) => x.h.inference);
  h('TokenLatency', 'Average token latency per request (microseconds)', (x) => x.h.tpot);
  return fs;
}
