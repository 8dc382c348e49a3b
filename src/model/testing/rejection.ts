/**
 * `rejection(p, ErrorClass)`: awaits `p` and returns the error it rejected with, checked to be an
 * `ErrorClass`. Any other rejection is rethrown, and fulfilment fails the test. For tests that
 * assert on an error's fields (type, status, message) rather than on its text alone.
 */
export async function rejection<E extends Error>(p: Promise<unknown>, errorClass: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (err: unknown) {
    if (err instanceof errorClass) return err;
    throw err;
  }
  throw new Error(`expected a rejection with ${errorClass.name}`);
}
