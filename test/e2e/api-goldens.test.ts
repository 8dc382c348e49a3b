import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/index.js';
import { queryClientSuiteData } from '../../src/query/testing/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { openSuiteDb } from '../../src/server/testing/suite-db.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { GOLDEN_CASES } from './api-golden-cases.js';
import { ask, readGolden } from './api-goldens-lib.js';

/**
 * Infersight's HTTP API answers every golden case as Prometheus 2.42 did (test/e2e/testdata/api,
 * captured by `npm run update-goldens -- api`) over the same data set: status, content type and
 * encoding, and the body byte for byte (`bytes`), as parsed JSON (`json`), by `errorType`, or by
 * structure (`shape`).
 */
describe('HTTP API matches the Prometheus 2.42 goldens', () => {
  const data = queryClientSuiteData();
  const t = tempDir('api-goldens');
  let server: RunningServer;
  let base = '';

  beforeAll(async () => {
    await (await openSuiteDb(t.dir, data)).close();
    server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => data.endMs });
    await server.ready;
    base = `http://127.0.0.1:${server.http.address.port}`;
  });
  afterAll(async () => {
    await server.close();
    t.remove();
  });

  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const golden = readGolden(name);
    if (golden === undefined) throw new Error(`no golden for ${name}: run npm run update-goldens -- api`);
    const got = await ask(base, c);
    expect({ status: got.status, headers: got.headers }).toEqual({ status: golden.status, headers: golden.headers });
    if (c.compare === 'bytes') expect(got.bodyText).toBe(golden.bodyText);
    expect(got.body).toEqual(golden.body);
  });
});
