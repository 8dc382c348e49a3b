/**
 * Tests that read the project's shared data beside the checkout (`../shared`: Prometheus'
 * promqltest files, the function table, reference expositions). It is data, not a peer, but the
 * rule is the peers' one (CONTRIBUTING.md): a laptop without it skips with the reason, CI fails.
 * Where the data is comes from the Vitest configuration (`provide`), so this file needs no Node
 * builtins.
 */
import { describe, inject, it } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `../shared` when it exists (else null), and whether the run is CI's (`CI=true`); set in vitest.config.ts. */
    sharedData: { dir: string | null; ci: boolean };
  }
}

/**
 * Declares the tests of `title` that need `../shared/<sub>`: with the shared data present,
 * `body(dir)` declares them (inside a `describe`), `dir` being the absolute path of `sub`;
 * without it, under `CI=true` one failing test says what is missing, elsewhere one skipped test
 * says why. `sub` is a path below `../shared` with `/` separators.
 */
export function withSharedData(title: string, sub: string, body: (dir: string) => void): void {
  const { dir, ci } = inject('sharedData');
  if (dir !== null) {
    describe(title, () => body(`${dir}/${sub}`));
    return;
  }
  const missing = `../shared/${sub} is not beside the checkout`;
  if (ci) {
    it(title, () => {
      throw new Error(`${missing}; CI must provide the shared data`);
    });
  } else {
    it.skip(`${title} [skipped: ${missing}; set CI=true to fail instead]`, () => undefined);
  }
}
