/**
 * The one cleanup fixture of the tests: what a test starts (a server, a temp dir, a peer) it
 * hands to `cleanups.push`, and the file's one `afterEach` (or `afterAll`) undoes it, newest
 * first, awaiting each. A cleanup that throws does not stop the others; the first error fails the
 * hook once all have run.
 */
import { afterAll, afterEach } from 'vitest';

/** Something to undo after a test: close a server, remove a directory, stop a process. */
export type Cleanup = () => unknown;

/** What `useCleanups` returns: a list to push cleanups onto. */
export interface Cleanups {
  push(...fns: Cleanup[]): void;
}

/**
 * Registers the hook that runs the cleanups pushed since it last ran: after each test (default)
 * or, with `'all'`, once after the file's (or the enclosing `describe`'s) tests. Call it at the
 * top of a file or inside a `describe`.
 */
export function useCleanups(when: 'each' | 'all' = 'each'): Cleanups {
  const pending: Cleanup[] = [];
  const run = async (): Promise<void> => {
    const errors: unknown[] = [];
    for (const c of pending.splice(0).reverse()) {
      try {
        await c();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed`);
  };
  (when === 'each' ? afterEach : afterAll)(run);
  return { push: (...fns) => void pending.push(...fns) };
}
