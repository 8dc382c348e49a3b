import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { FEDERATE_CASES, pushFederateDataset } from './federate-data.js';
import { askFederate, readFederateGolden } from './federate-lib.js';

/**
 * The text with the sample lines of each metric family sorted: Prometheus 2.42 sorts its answer
 * by metric name with Go's unstable `sort.Sort`, so lines of one family come in any order once
 * the answer has more than 12 series; ours keep label order (checked in federate.test.ts).
 */
function canonical(text: string): string {
  const families: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ') || families.length === 0) families.push([line]);
    else families[families.length - 1].push(line);
  }
  return families.map(([head, ...lines]) => [head, ...lines.sort()].join('\n')).join('\n');
}

/**
 * Infersight's `/federate` answers every golden case as Debian's Prometheus 2.42 did
 * (test/e2e/testdata/federate, `npm run update-goldens -- federate`) over the same data set,
 * pushed by remote write with the golden's base time, with the clock set to the golden's "now".
 */
describe('/federate matches the Prometheus 2.42 golden', () => {
  const golden = readFederateGolden();
  const t = tempDir('federate-golden');
  let server: RunningServer;
  let base = '';

  beforeAll(async () => {
    if (golden === undefined) return;
    server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => golden.nowMs });
    await server.ready;
    base = `http://127.0.0.1:${server.http.address.port}`;
    await pushFederateDataset(base, golden.baseMs);
  });
  afterAll(async () => {
    if (golden !== undefined) await server.close();
    t.remove();
  });

  it('has a golden for every case', () => {
    if (golden === undefined) throw new Error('no federate golden: run npm run update-goldens -- federate');
    expect(golden.answers.map((a) => a.name)).toEqual(FEDERATE_CASES.map((c) => c.name));
  });

  for (const c of FEDERATE_CASES) {
    // A case with a known bug elsewhere must fail; once the bug is fixed, drop its `knownBug`.
    (c.knownBug === undefined ? it : it.fails)(c.knownBug === undefined ? c.name : `${c.name} (known bug: ${c.knownBug})`, async () => {
      const want = golden?.answers.find((a) => a.name === c.name);
      if (want === undefined) throw new Error(`no golden for ${c.name}: run npm run update-goldens -- federate`);
      const got = await askFederate(base, c);
      expect({ status: got.status, headers: got.headers }).toEqual({ status: want.status, headers: want.headers });
      if (c.statusOnly !== true) expect(canonical(got.bodyText)).toBe(canonical(want.bodyText));
    });
  }
});
