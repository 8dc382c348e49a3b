/** `createScoreIngest`: the `ScoreIngest` of the contract, over `QualityMetrics`. */
import type { Clock } from '../../model/index.js';
import type { QualityScore, ScoreIngest, ScoreIngestResult } from '../types.js';
import type { QualityMetrics } from './metrics.js';
import { checkScores } from './validate.js';

/**
 * A `ScoreIngest` over `metrics`: checks the scores against the batch rules at `clock()` (they
 * may come from a path other than `validateScoreBatch`), then records them; resolves once they
 * are stored, rejects with `QualityInputError` (nothing stored) or the sink's error.
 */
export function createScoreIngest(metrics: QualityMetrics, clock: Clock): ScoreIngest {
  return {
    ingest: async (scores: readonly QualityScore[]): Promise<ScoreIngestResult> => {
      checkScores(scores, clock());
      await metrics.recordScores(scores);
      return { accepted: scores.length };
    },
  };
}
