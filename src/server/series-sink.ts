/**
 * The store side of src/model's `SeriesSink`, the port that the modules deriving series from
 * PromQL answers (diagnosis, cost, quality) declare because they may not import storage: each
 * `write` is one appender, committed as a whole or rolled back.
 */
import { Labels, type SeriesSample, type SeriesSink } from '../model/index.js';
import type { Appendable } from '../storage/index.js';

/** A `SeriesSink` over an `Appendable`: one appender per write, committed before the promise resolves. */
export function appendableSink(appendable: Appendable): SeriesSink {
  return {
    write: async (samples: readonly SeriesSample[]) => {
      const app = appendable.appender();
      try {
        for (const s of samples) app.append(0, Labels.from(s.labels), s.tMs, s.value);
      } catch (e) {
        app.rollback();
        throw e;
      }
      await app.commit();
    },
  };
}
