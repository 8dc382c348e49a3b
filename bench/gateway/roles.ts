/**
 * Child processes of the gateway benchmark, each in its own process so that its CPU time is its
 * own: `upstream CHUNKS GAP_MS` (a fake OpenAI upstream streaming CHUNKS content chunks GAP_MS
 * apart) and `gateway URL` (the gateway in front of it, metrics to a discarding Appendable).
 * Each sends `{ url }` over IPC once listening, and answers `'cpu'` with its CPU seconds.
 */
import { startGateway, validateGatewayConfig } from '../../src/gateway/index.js';
import { startFakeUpstream } from '../../src/gateway/testing/fake-upstream.js';
import type { Appendable } from '../../src/storage/index.js';

const discard: Appendable = { appender: () => ({ append: (ref) => ref, commit: async () => undefined, rollback: () => undefined }) };
const [role, a, b] = process.argv.slice(2);

let url: string;
if (role === 'upstream') {
  url = (await startFakeUpstream({ chunks: Number(a), gapMs: Number(b) })).url;
} else if (role === 'gateway') {
  const config = validateGatewayConfig({
    health_check: { enabled: false },
    upstream: { max_sockets: 100_000 },
    models: [{ name: 'm', replicas: [{ url: a, labels: { replica: 'r0', az: 'a', engine: 'vllm' } }] }],
  });
  url = (await startGateway({ config, appendable: discard, listen: '127.0.0.1:0' })).url;
} else {
  throw new Error(`unknown role ${role}`);
}
process.on('message', (m) => {
  if (m !== 'cpu') return;
  const u = process.cpuUsage();
  process.send!({ cpuS: (u.user + u.system) / 1e6 });
});
// SIGINT exits cleanly, so that a run under --cpu-prof writes its profile.
process.on('SIGINT', () => process.exit(0));
process.send!({ url });
