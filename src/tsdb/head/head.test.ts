import { collectSeries } from '../../storage/index.js';
import { runAppenderSuite, runQuerierSuite } from '../../storage/testing/index.js';
import { Head } from './head.js';

const HOUR = 3_600_000;

function newHead(): Head {
  return new Head({ blockRangeMs: 2 * HOUR, oooWindowMs: 0, log: null });
}

runAppenderSuite(
  'in-memory head',
  () => {
    const head = newHead();
    return Promise.resolve({
      appendable: head,
      read: (ms, minT, maxT) => {
        const q = head.querier(minT, maxT);
        try {
          return Promise.resolve(collectSeries(q.select(ms)));
        } finally {
          q.close();
        }
      },
      close: () => Promise.resolve(),
    });
  },
  { validatesOrder: true, persistent: false },
);

runQuerierSuite('in-memory head', async (data) => {
  const head = newHead();
  const app = head.appender();
  for (const s of data) for (const x of s.samples) app.append(0, s.labels, x.tMs, x.value);
  await app.commit();
  return { queryable: head, close: () => Promise.resolve() };
});
