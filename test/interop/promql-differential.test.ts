/**
 * Differential test of the PromQL engine against Debian's Prometheus 2.42 (docs/goals.md, goal 4):
 * the same samples go into both stores (promtool backfill for Prometheus, the appender for our
 * `Db`), a few hundred generated queries run on both as instant and range queries, and every
 * answer is compared. The test prints `promql-differential: N queries, M equal, K differ` and each
 * difference; it fails on any difference not listed, with its reason, in
 * promql-diff/known-differences.ts. What the data and queries avoid, and why, is written at the top
 * of promql-diff/queries.ts (2.42 vs 3.x semantics) and promql-diff/compare.ts (tolerances).
 *
 * Env: PROMQL_DIFF_FILTER=<substring> runs only the queries containing it;
 * PROMQL_DIFF_REPORT=<file> also writes the report there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { blockSamples, createBlocks, startPrometheus } from '../../bench/promql/prometheus-peer.js';
import { Engine } from '../../src/promql/engine/index.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { findPeer, itWithPeer } from '../peers/peers.js';
import { buildDataset } from './promql-diff/dataset.js';
import { writeDb, writeOpenMetrics } from './promql-diff/load.js';
import { diffQueries, evaluations } from './promql-diff/queries.js';
import { formatReport, runDiff } from './promql-diff/run.js';

const cleanups = useCleanups();

describe('PromQL differential: our engine against Prometheus 2.42', () => {
  itWithPeer(
    'every generated query answers as Prometheus does, apart from the known differences',
    'prometheus',
    async (prometheus) => {
      const promtool = findPeer('promtool');
      if (promtool === null) throw new Error('promtool is not installed (Debian package prometheus); the differential test needs it');
      const t = tempDir('promql-diff');
      cleanups.push(t.remove);
      const ds = buildDataset();

      const om = path.join(t.dir, 'data.om');
      writeOpenMetrics(ds, om);
      const blocks = path.join(t.dir, 'prometheus');
      createBlocks(promtool, om, blocks);
      fs.rmSync(om);
      // Prometheus holds exactly the samples our Db gets (a silent promtool drop would void the comparison).
      expect(blockSamples(blocks)).toBe(ds.samples);
      const peer = await startPrometheus(prometheus, blocks);
      cleanups.push(peer.stop);

      const db = await Db.open({ dir: path.join(t.dir, 'db'), fsync: { mode: 'never' } });
      cleanups.push(() => db.close());
      await writeDb(ds, db);

      const filter = process.env.PROMQL_DIFF_FILTER;
      const queries = diffQueries(ds.baseMs).filter((q) => filter === undefined || q.query.includes(filter));
      const report = await runDiff(
        { queryable: db, engine: new Engine(), experimentalEngine: new Engine({ enableExperimentalFunctions: true }), prometheus: peer.client },
        evaluations(queries, ds.baseMs),
      );
      const text = formatReport(report);
      process.stdout.write(text);
      if (process.env.PROMQL_DIFF_REPORT !== undefined) fs.writeFileSync(process.env.PROMQL_DIFF_REPORT, text);

      expect(report.differences.filter((d) => d.known === undefined).map((d) => d.e.q.query)).toEqual([]);
      expect(report.stale.map((k) => k.query)).toEqual([]);
    },
    900_000,
  );
});
