/**
 * Captures the HTTP API goldens from a real Prometheus 2.42 loaded with the query-client suite's
 * data set. Run through `npm run update-goldens -- api`; review the diff of test/e2e/testdata/api.
 */
import fs from 'node:fs';
import path from 'node:path';
import { queryClientSuiteData } from '../../src/query/testing/index.js';
import { findPeer } from '../peers/peers.js';
import { startPrometheusWithData } from './api-backends.js';
import { GOLDEN_CASES } from './api-golden-cases.js';
import { API_GOLDEN_DIR, ask, writeGolden } from './api-goldens-lib.js';

/** Starts Prometheus, asks every case, rewrites the golden directory; returns the number of files written. */
export async function updateApiGoldens(log: (line: string) => void): Promise<number> {
  const prometheus = findPeer('prometheus');
  const promtool = findPeer('promtool');
  if (prometheus === null || promtool === null) throw new Error('the api goldens need prometheus and promtool on PATH (Debian package prometheus)');
  const version = (await import('node:child_process')).spawnSync(prometheus, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  log(`capturing from ${version}`);
  const backend = await startPrometheusWithData(prometheus, promtool, queryClientSuiteData());
  try {
    const keep = new Set<string>();
    for (const c of GOLDEN_CASES) {
      writeGolden(c.name, await ask(backend.url, c));
      keep.add(`${c.name}.json`);
    }
    for (const f of fs.readdirSync(API_GOLDEN_DIR)) {
      if (f.endsWith('.json') && !keep.has(f)) {
        fs.rmSync(path.join(API_GOLDEN_DIR, f));
        log(`removed stale ${f}`);
      }
    }
    return keep.size;
  } finally {
    await backend.stop();
  }
}
