// update-goldens: regenerates the golden files under testdata/ folders, one generator per kind.
//
//   npm run update-goldens              every kind
//   npm run update-goldens -- api       only the named kinds
//
// A generator writes its files and prints what it did; review the diff before committing. To add
// a kind, add an entry to GENERATORS (a lazy import keeps the others' dependencies out).

interface Generator {
  /** What it regenerates, and from what. */
  readonly describe: string;
  run(log: (line: string) => void): Promise<number>;
}

const GENERATORS: Record<string, Generator> = {
  api: {
    describe: 'HTTP API answers of a real Prometheus 2.42 (test/e2e/testdata/api/)',
    run: async (log) => (await import('../test/e2e/api-goldens-capture.js')).updateApiGoldens(log),
  },
  'scrape-targets': {
    describe: '/api/v1/targets of a real Prometheus 2.42 scraping a loopback target (src/ingest/scrape/testdata/)',
    run: async (log) => (await import('../test/e2e/scrape-targets-capture.js')).updateScrapeTargetsGolden(log),
  },
  federate: {
    describe: '/federate answers of a real Prometheus 2.42 fed by remote write (test/e2e/testdata/federate/)',
    run: async (log) => (await import('../test/e2e/federate-capture.js')).updateFederateGolden(log),
  },
  'rules-api': {
    describe: '/api/v1/rules and /api/v1/alerts of a real Prometheus 2.42 evaluating a small rule file (web/src/api/testdata/)',
    run: async (log) => (await import('../test/e2e/rules-api-capture.js')).updateRulesApiGolden(log),
  },
  diagnosis: {
    describe: 'the answers of /api/v1/diagnosis and /api/v1/insights over the fixture fleet (src/server/api/testdata/diagnosis-api.json)',
    run: async (log) => {
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync('npx', ['vitest', 'run', 'src/server/api/diagnosis.test.ts'], { env: { ...process.env, UPDATE_GOLDENS: '1' }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`diagnosis goldens update failed:\n${r.stdout}${r.stderr}`);
      log('wrote src/server/api/testdata/diagnosis-api.json');
      return 1;
    },
  },
  promqltest: {
    describe: 'the list of upstream promqltest evals that pass (src/promql/promqltest/baseline.txt)',
    run: async (log) => {
      const { spawnSync } = await import('node:child_process');
      const r = spawnSync('npx', ['vitest', 'run', 'src/promql/promqltest/upstream.test.ts'], {
        env: { ...process.env, UPDATE_PROMQLTEST_BASELINE: '1' },
        encoding: 'utf8',
      });
      for (const line of r.stdout.split('\n')) {
        const at = line.indexOf('promqltest:');
        if (at >= 0) log(line.slice(at));
      }
      if (r.status !== 0) throw new Error(`promqltest baseline update failed:\n${r.stdout}${r.stderr}`);
      return 1;
    },
  },
};

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((k) => !(k in GENERATORS));
  if (unknown.length > 0) {
    console.error(`unknown golden kind(s): ${unknown.join(', ')}; known: ${Object.keys(GENERATORS).join(', ')}`);
    return 2;
  }
  for (const kind of asked.length > 0 ? asked : Object.keys(GENERATORS)) {
    const g = GENERATORS[kind];
    console.log(`${kind}: ${g.describe}`);
    const n = await g.run((line) => console.log(`  ${line}`));
    console.log(`  ${n} files written`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
