import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../model/testing/cleanups.js';
import type { ServeOptions } from '../serve.js';
import { DX_INCIDENT_MS, DX_START_MS, startDiagnosisServer } from '../testing/diagnosis-fixture.js';

// The answers of /api/v1/diagnosis and /api/v1/insights over the fixture fleet, compared with
// testdata/diagnosis-api.json. `UPDATE_GOLDENS=1` (npm run update-goldens -- diagnosis) rewrites it.
const GOLDEN = new URL('./testdata/diagnosis-api.json', import.meta.url);
const cleanups = useCleanups();

const start = (extra: Partial<ServeOptions> = {}): Promise<string> => startDiagnosisServer(cleanups, extra);

const sec = (tMs: number) => String(tMs / 1000);
const q = (params: [string, string][]) => new URLSearchParams(params).toString();

/** Each case: a name, the request path, and the server to ask (`none`: no diagnoser wired). */
const CASES: [name: string, path: string, server?: 'none'][] = [
  ['healthy fleet answers none', `/api/v1/diagnosis?${q([['time', sec(DX_START_MS + 80 * 60_000)]])}`],
  ['incident answers kv-cache-pressure', `/api/v1/diagnosis?${q([['time', sec(DX_INCIDENT_MS + 5 * 60_000)]])}`],
  ['time as RFC 3339', `/api/v1/diagnosis?${q([['time', new Date(DX_INCIDENT_MS + 5 * 60_000).toISOString()]])}`],
  ['match[] narrows to the healthy deployment', `/api/v1/diagnosis?${q([['time', sec(DX_INCIDENT_MS + 5 * 60_000)], ['match[]', '{component="qwen-b"}']])}`],
  ['symptom reaches the diagnoser', `/api/v1/diagnosis?${q([['time', sec(DX_INCIDENT_MS + 5 * 60_000)], ['symptom', 'ttft']])}`],
  ['time defaults to now', '/api/v1/diagnosis'],
  ['bad time', `/api/v1/diagnosis?${q([['time', 'yesterday']])}`],
  ['bad match[]', `/api/v1/diagnosis?${q([['match[]', '{component=']])}`],
  ['match[] matching everything', `/api/v1/diagnosis?${q([['match[]', '{component=~".*"}']])}`],
  ['bad symptom', `/api/v1/diagnosis?${q([['symptom', 'latency']])}`],
  ['insights without a runner', '/api/v1/insights'],
  ['insights with end before start', `/api/v1/insights?${q([['start', '200'], ['end', '100']])}`],
  ['insights with a bad start', `/api/v1/insights?${q([['start', 'x']])}`],
  ['no diagnoser wired', '/api/v1/diagnosis', 'none'],
];

describe('/api/v1/diagnosis and /api/v1/insights', () => {
  it('answer as the goldens say', async () => {
    const base = await start();
    const bare = await start({ diagnose: { createDiagnoser: null } });
    const got: Record<string, { status: number; body: unknown }> = {};
    for (const [name, path, server] of CASES) {
      const res = await fetch((server === 'none' ? bare : base) + path);
      got[name] = { status: res.status, body: JSON.parse(await res.text()) as unknown };
    }
    if (process.env.UPDATE_GOLDENS === '1') writeFileSync(GOLDEN, JSON.stringify(got, null, 2) + '\n');
    const want = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, unknown>;
    for (const [name] of CASES) expect(got[name], name).toEqual(want[name]);
    expect(Object.keys(want).sort()).toEqual(Object.keys(got).sort());
  });
});
