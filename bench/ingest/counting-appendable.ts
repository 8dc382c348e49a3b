import type { Appendable } from '../../src/storage/index.js';

/** An `Appendable` that only counts samples: measures the receiver without a store behind it. */
export function countingAppendable(): Appendable & { samples: number } {
  const a = {
    samples: 0,
    appender: () => {
      let n = 0;
      return {
        append: (ref: number) => {
          n++;
          return ref === 0 ? 1 : ref;
        },
        commit: () => {
          a.samples += n;
          return Promise.resolve();
        },
        rollback: () => undefined,
      };
    },
  };
  return a;
}
