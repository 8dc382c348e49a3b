import { it } from 'vitest';
import { HttpQueryClient } from '../../src/query/index.js';
import { runQueryClientSuite } from '../../src/query/testing/index.js';
import { findPeer, type PeerBinary } from '../peers/peers.js';
import { startInfersightWithData, startPrometheusWithData, startVictoriaMetricsWithData } from './api-backends.js';

/**
 * The QueryClient conformance suite through HTTP: HttpQueryClient against real Prometheus 2.42,
 * real VictoriaMetrics and the built `infersight serve`. A missing peer fails under CI=true and
 * skips elsewhere, like `itWithPeer`.
 */
function withPeers(name: string, binaries: PeerBinary[], run: (paths: string[]) => void): void {
  const paths = binaries.map(findPeer);
  const missing = binaries.filter((_, i) => paths[i] === null);
  if (missing.length === 0) run(paths as string[]);
  else if (process.env.CI === 'true') it(name, () => Promise.reject(new Error(`${missing.join(', ')} not installed; CI must install it (see .ci/run)`)));
  else it.skip(`${name} [skipped: ${missing.join(', ')} not installed; set CI=true to fail instead]`, () => undefined);
}

withPeers('HttpQueryClient → Prometheus 2.42', ['prometheus', 'promtool'], ([prometheus, promtool]) => {
  runQueryClientSuite('HttpQueryClient → Prometheus 2.42 (POST)', async (data) => {
    const b = await startPrometheusWithData(prometheus, promtool, data);
    return { client: new HttpQueryClient({ url: b.url }), close: b.stop };
  });
});

withPeers('HttpQueryClient → VictoriaMetrics', ['victoria-metrics'], ([vm]) => {
  runQueryClientSuite('HttpQueryClient → VictoriaMetrics (GET)', async (data) => {
    const b = await startVictoriaMetricsWithData(vm, data);
    return {
      client: new HttpQueryClient({ url: b.url, method: 'GET' }),
      close: b.stop,
      quirks: { scalarAsVector: true, stringAsEmptyVector: true, parseErrorAsExecution: true, acceptsEmptyMatchers: true },
    };
  });
});

runQueryClientSuite('HttpQueryClient → infersight serve (built CLI)', async (data) => {
  const b = await startInfersightWithData(data);
  return { client: new HttpQueryClient({ url: b.url }), close: b.stop };
});
