import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { TIERS } from './test/tiers.js';

/**
 * The project's shared data beside the checkout (`../shared`: upstream promqltest files, the
 * function table, reference expositions), handed to tests through `inject('sharedData')` so that
 * `withSharedData` (src/model/testing/shared-data.ts, which declares its type) needs no Node
 * builtins: model's tests run under the browser rules too.
 */
const sharedDir = fileURLToPath(new URL('../shared', import.meta.url));
const sharedData = { dir: existsSync(sharedDir) ? sharedDir : null, ci: process.env.CI === 'true' };

/**
 * The three tiers (CONTRIBUTING.md, "Test tiers"). `unit`: in-process, no real peers and no built
 * CLI; this includes the cross-module tests in test/dashboards, test/gateway, test/normalize,
 * test/quality, test/rules and test/tooling, which live in test/ only because they import modules their own
 * module may not. `interop`: real peers on loopback (test/interop, and test/peers, the helper
 * that finds them). `e2e`: the built CLI (dist/) on free ports, spoken to over HTTP and through
 * Chromium, and test/fuzz, which drives the same built CLI with seeded hostile input. Every test
 * file matches exactly one tier (test/tooling/test-tiers.test.ts).
 */
const tier = (name: keyof typeof TIERS): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: [...TIERS[name]] },
});

export default defineConfig({
  test: {
    // Crash and replay tests spawn child processes; give them room on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    provide: { sharedData },
    projects: [tier('unit'), tier('interop'), tier('e2e')],
  },
});
