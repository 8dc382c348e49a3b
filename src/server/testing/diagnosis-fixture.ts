import type { Cause, Diagnoser } from '../../diagnose/index.js';
import { Labels, MemoryLogger, type UnixMs } from '../../model/index.js';
import { parseSampleValue, type QueryClient } from '../../query/index.js';
import type { Cleanups } from '../../model/testing/cleanups.js';
import { Db } from '../../tsdb/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer, type ServeOptions } from '../serve.js';

/**
 * A small fleet with one incident, for the tests of the diagnosis routes, the insight runner's
 * wiring and `infersight diagnose`: two deployments of endpoint `chat` scraped every 15 s for two
 * hours; `llama-a`'s KV cache fills (0.45 → 0.97) for 15 minutes from `DX_INCIDENT_MS`, and its
 * requests' TTFT goes from under 0.25 s to 2–4 s meanwhile. `qwen-b` stays healthy throughout.
 */
export const DX_START_MS: UnixMs = Date.UTC(2025, 0, 6, 10, 0, 0);
/** When the incident starts: 90 minutes in. */
export const DX_INCIDENT_MS: UnixMs = DX_START_MS + 90 * 60_000;
/** When it ends. */
export const DX_RECOVERY_MS: UnixMs = DX_INCIDENT_MS + 15 * 60_000;
/** The last sample. */
export const DX_END_MS: UnixMs = DX_START_MS + 120 * 60_000;
const STEP_MS = 15_000;
const BOUNDS = ['0.25', '0.5', '1', '2', '4', '8', '+Inf'];

const inIncident = (component: string, tMs: UnixMs): boolean => component === 'llama-a' && tMs >= DX_INCIDENT_MS && tMs < DX_RECOVERY_MS;

/** Writes the fleet into a new `Db` in `dir` and closes it. */
export async function writeDiagnosisFleet(dir: string): Promise<void> {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: () => DX_END_MS });
  const app = db.appender();
  for (const component of ['llama-a', 'qwen-b']) {
    const id = { endpoint: 'chat', component, engine: 'vllm', replica: `${component}-0` };
    // 20 requests a scrape interval: fast ones fall in the first bucket, incident ones in (2, 4].
    const counts = BOUNDS.map(() => 0);
    for (let t = DX_START_MS; t <= DX_END_MS; t += STEP_MS) {
      const slow = inIncident(component, t);
      BOUNDS.forEach((_, i) => (counts[i] += slow ? (i >= 4 ? 20 : 0) : 20));
      app.append(0, Labels.from({ __name__: 'llm_kv_cache_usage_ratio', ...id }), t, slow ? 0.97 : component === 'llama-a' ? 0.45 : 0.4);
      // The scrape's own series, with the identity labels the UI's hex grid draws its cells from.
      app.append(0, Labels.from({ __name__: 'up', job: 'sim', ...id, instance: `i-${component}`, az: 'us-east-1a', model: component, instance_type: 'g5.xlarge' }), t, 1);
      BOUNDS.forEach((le, i) => app.append(0, Labels.from({ __name__: 'llm_time_to_first_token_seconds_bucket', ...id, le }), t, counts[i]));
    }
  }
  await app.commit();
  await db.close();
}

/** The one value of an instant vector query, or null when it is empty. */
async function scalarOf(client: QueryClient, query: string, tMs: UnixMs): Promise<{ value: number | null; metric: Record<string, string> }> {
  const r = (await client.instant(query, tMs)).data;
  if (r.resultType !== 'vector' || r.result.length === 0) return { value: null, metric: {} };
  return { value: parseSampleValue(r.result[0].value[1]), metric: r.result[0].metric };
}

/**
 * A diagnoser that knows one cause, built from real queries through the client it is given:
 * KV-cache pressure where the fullest KV cache is above 90 % and was under 70 % an hour before,
 * `none` otherwise. `match` narrows the query (a `{…}` selector's matchers are added to it); the
 * summary names the symptom asked for, so tests see that it got through.
 */
export function kvOnlyDiagnoser(client: QueryClient): Diagnoser {
  return async (req) => {
    const m = req.match?.[0];
    const query = `max by (endpoint, component) (llm_kv_cache_usage_ratio${m !== undefined && m.startsWith('{') ? m : ''})`;
    const incident = await scalarOf(client, query, req.timeMs);
    const baseline = await scalarOf(client, query, req.timeMs - 3_600_000);
    const evidence = [{ query, baseline: baseline.value, incident: incident.value }];
    const about = req.symptom === undefined ? '' : ` (symptom ${req.symptom})`;
    if (incident.value !== null && incident.value > 0.9 && (baseline.value ?? 0) < 0.7) {
      const cause: Cause = {
        cause: 'kv-cache-pressure',
        confidence: 0.9,
        scope: { endpoint: incident.metric.endpoint, component: incident.metric.component },
        onsetMs: null,
        summary: `KV cache of ${incident.metric.component} is full: add replicas or lower max_num_seqs${about}`,
        evidence,
      };
      return { timeMs: req.timeMs, causes: [cause], ruledOut: [{ cause: 'none', reason: 'the KV cache filled up against the hour before' }] };
    }
    return {
      timeMs: req.timeMs,
      causes: [{ cause: 'none', confidence: 1, scope: {}, onsetMs: null, summary: `nothing is wrong${about}`, evidence }],
      ruledOut: [{ cause: 'kv-cache-pressure', reason: 'no KV cache is above 90 %' }],
    };
  };
}

/**
 * Starts a server over the fixture fleet in its own temp dir (no UI, clock at `DX_END_MS`,
 * `kvOnlyDiagnoser` on demand only, unless `extra` says otherwise), waits until it is ready and
 * returns its base URL; `cleanups` closes it and removes the dir.
 */
export async function startDiagnosisServer(cleanups: Cleanups, extra: Partial<ServeOptions> = {}): Promise<string> {
  const t = tempDir('diagnosis-fixture');
  cleanups.push(t.remove);
  await writeDiagnosisFleet(t.dir);
  const server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: t.dir, fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: () => DX_END_MS,
    ui: false,
    diagnose: { createDiagnoser: kvOnlyDiagnoser, online: false },
    ...extra,
  });
  cleanups.push(() => server.close());
  await server.ready;
  return `http://127.0.0.1:${server.http.address.port}`;
}
