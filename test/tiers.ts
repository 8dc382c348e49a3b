/**
 * The test tiers' file globs, one list per Vitest project (vitest.config.ts builds the projects
 * from it; CONTRIBUTING.md, "Test tiers", says what each tier is). A file of its own so that
 * test/tooling/test-tiers.test.ts can check that every test file belongs to exactly one tier.
 */
/** Globs of each tier's test files, relative to the repository root. */
export const TIERS: Readonly<Record<'unit' | 'interop' | 'e2e', readonly string[]>> = {
  unit: ['src/**/*.test.ts', 'test/{conformance,cost,dashboards,diagnose,gateway,normalize,quality,rules,tooling}/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
  interop: ['test/interop/**/*.test.ts', 'test/peers/**/*.test.ts'],
  e2e: ['test/e2e/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
};

