/**
 * The sample store's conformance suite on Debian's real PostgreSQL, started on loopback in a temp
 * dir (test/peers/peers.ts `startPostgres`), and `openSampleStore`'s PostgreSQL path. Under
 * CI=true a missing PostgreSQL fails the tests; elsewhere they are skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleStore, SampleStoreSchemaError } from '../../src/quality/index.js';
import { openPostgresConn } from '../../src/quality/store/postgres-conn.js';
import { describeSampleStore, suitePair } from '../../src/quality/store/testing/store-suite.js';
import { findPeer, startPostgres, type PostgresPeer } from '../peers/peers.js';
import { noopLogger } from '../../src/model/index.js';

const binary = findPeer('postgres');

if (binary === null && process.env.CI === 'true') {
  it('PostgreSQL is installed', () => {
    throw new Error('postgres is not installed; CI must install it (see .ci/run: apt-get install postgresql)');
  });
} else if (binary === null) {
  it.skip('sample store on PostgreSQL [skipped: postgres not installed; set CI=true to fail instead]', () => undefined);
} else {
  let server: PostgresPeer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-quality-pg-'));
    server = await startPostgres(binary, dir);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Each `connect` is a pool of its own: concurrent writers are separate connections, as in a shared deployment.
  describeSampleStore('PostgreSQL (Debian, loopback)', { connect: () => Promise.resolve(openPostgresConn(server.connectionString, noopLogger)) });

  describe('openSampleStore on PostgreSQL', () => {
    it('migrates on open, stores through a pool, and refuses a newer schema', async () => {
      const admin = openPostgresConn(server.connectionString, noopLogger);
      await admin.exec('DROP TABLE IF EXISTS quality_evaluations, quality_pairs, schema_migrations CASCADE');
      const s = await openSampleStore({ kind: 'postgres', connectionString: server.connectionString });
      expect(s.kind).toBe('postgres');
      await s.putPairs([suitePair(1)]);
      expect((await s.get(suitePair(1).id))?.pair).toEqual(suitePair(1));
      await s.close();
      await admin.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES (999, $1, 0)', ['from the future']);
      await expect(openSampleStore({ kind: 'postgres', connectionString: server.connectionString })).rejects.toThrow(SampleStoreSchemaError);
      await admin.close();
    });

    it('rejects with the connection error when no server listens', async () => {
      const dead = server.connectionString.replace(`:${server.port}/`, ':1/');
      await expect(openSampleStore({ kind: 'postgres', connectionString: dead })).rejects.toThrow(/ECONNREFUSED|connect/);
    });
  });
}
