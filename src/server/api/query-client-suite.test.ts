import { MemoryLogger } from '../../model/index.js';
import { Engine, EngineQueryClient } from '../../promql/index.js';
import { HttpQueryClient } from '../../query/index.js';
import { runQueryClientSuite } from '../../query/testing/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer } from '../serve.js';
import { openSuiteDb } from '../testing/suite-db.js';

// The embedded implementation: the real engine over the real TSDB, no HTTP in between.
runQueryClientSuite('EngineQueryClient over the embedded TSDB', async (data) => {
  const t = tempDir('qc-engine');
  const db = await openSuiteDb(t.dir, data);
  const engine = new Engine();
  return {
    client: new EngineQueryClient({ engine, queryable: db }),
    close: async () => {
      await db.close();
      t.remove();
    },
  };
});

// The same, through Infersight's HTTP API and the HTTP client, with GET requests.
runQueryClientSuite('HttpQueryClient → startServer (GET)', async (data) => {
  const t = tempDir('qc-http');
  await (await openSuiteDb(t.dir, data)).close();
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => data.endMs });
  await server.ready;
  return {
    client: new HttpQueryClient({ url: `http://127.0.0.1:${server.http.address.port}`, method: 'GET' }),
    close: async () => {
      await server.close();
      t.remove();
    },
  };
});
