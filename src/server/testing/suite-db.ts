import { Labels, MemoryLogger } from '../../model/index.js';
import type { QueryClientSuiteData } from '../../query/testing/index.js';
import { Db } from '../../tsdb/index.js';

/**
 * Opens a `Db` in `dir` and appends the query-client suite's data set to it in one commit (for
 * tests of the query API over the embedded store). The caller closes the `Db`.
 */
export async function openSuiteDb(dir: string, data: QueryClientSuiteData): Promise<Db> {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: () => data.endMs });
  const app = db.appender();
  for (const s of data.series) {
    const labels = Labels.from(s.metric);
    let ref = 0;
    for (const [t, v] of s.samples) ref = app.append(ref, labels, t, v);
  }
  await app.commit();
  return db;
}
