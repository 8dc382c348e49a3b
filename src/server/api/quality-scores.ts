/**
 * `POST /api/v1/quality/scores` (issue 18; docs/quality.md "Score ingest"): a JSON batch of scores
 * into the quality namespace. The body is read under `MAX_SCORE_BODY_BYTES` by src/http's reader,
 * parsed and validated whole before anything is stored (src/quality/ingest), and answered once
 * the store has the batch: `{"status":"success","data":{"accepted":N}}`. Refusals use the API's
 * envelope with the problems in `data`: 400 `bad_data` for a bad batch, 413 for one too large, 503
 * `unavailable` while the store opens; a store error answers with its registry entry.
 */
import type http from 'node:http';
import { readBody, type BodyProblem, type BodyReadSettings } from '../../http/index.js';
import { errorStatus, isCodedError, type Clock, type Logger } from '../../model/index.js';
import { httpStatusForErrorType, type ErrorType } from '../../query/index.js';
import { MAX_SCORE_BODY_BYTES, QualityInputError, parseScoreBatchJson, validateScoreBatch, type QualityInputProblem, type ScoreIngest } from '../../quality/index.js';
import type { Handler } from '../http.js';
import { encodeJson } from './json.js';
import { writeJson } from './respond.js';

/** What the route needs. */
export interface QualityScoresDeps {
  /** The quality path into the store; null while the store opens (answered 503) or when quality ingest is off. */
  readonly ingest: () => ScoreIngest | null;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Body time limits (default 30 s idle, 60 s in all). */
  readonly bodyRead?: BodyReadSettings;
  /** The largest body; default `MAX_SCORE_BODY_BYTES` (4 MiB). */
  readonly maxBodyBytes?: number;
}

/** The error envelope, with the batch's problems in `data` when there are any. */
function errorBody(errorType: ErrorType, message: string, problems: readonly QualityInputProblem[] = []): string {
  return encodeJson({ status: 'error', errorType, error: message, ...(problems.length === 0 ? {} : { data: { problems } }) });
}

function bodyRefusal(p: BodyProblem): { status: number; message: string } {
  if (p.kind === 'too_large') return { status: 413, message: `the score batch is over ${MAX_SCORE_BODY_BYTES} bytes: ${p.message}` };
  return { status: p.kind === 'timeout' ? 408 : 400, message: p.message };
}

/** The handler of `POST /api/v1/quality/scores`. */
export function qualityScoresHandler(deps: QualityScoresDeps): Handler {
  const maxBytes = deps.maxBodyBytes ?? MAX_SCORE_BODY_BYTES;
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const r = await readBody(req, { ...deps.bodyRead, maxBytes });
    if (!r.ok) {
      if (r.problem.kind === 'aborted') {
        res.destroy();
        return;
      }
      const { status, message } = bodyRefusal(r.problem);
      await writeJson(req, res, status, errorBody('bad_data', message), true);
      return;
    }
    try {
      const ingest = deps.ingest();
      if (ingest === null) {
        await writeJson(req, res, 503, errorBody('unavailable', 'the store is not ready yet (or quality ingest is off)'));
        return;
      }
      const scores = validateScoreBatch(parseScoreBatchJson(r.body.toString('utf8')), deps.clock());
      const { accepted } = await ingest.ingest(scores);
      await writeJson(req, res, 200, encodeJson({ status: 'success', data: { accepted } }));
    } catch (e) {
      if (res.headersSent || res.destroyed) return;
      if (e instanceof QualityInputError) {
        deps.logger.debug('score batch refused', { err: e.message });
        await writeJson(req, res, errorStatus(e), errorBody('bad_data', e.message, e.problems));
        return;
      }
      // A store error carries its entry (out of bounds: 400; unavailable: 503); anything else is a bug.
      const errorType: ErrorType = isCodedError(e) && e.spec.errorType !== null ? e.spec.errorType : 'internal';
      const status = isCodedError(e) ? errorStatus(e) : httpStatusForErrorType('internal');
      const message = e instanceof Error ? e.message : String(e);
      if (status >= 500) deps.logger.error('storing a score batch failed', { err: message });
      await writeJson(req, res, status, errorBody(errorType, message));
    }
  };
}
