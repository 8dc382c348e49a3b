/**
 * Runs the web UI's unit tests on their own: `npx vitest run --config web/vitest.config.ts`.
 * They are pure-function tests and renderToString smoke tests in the node environment.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
