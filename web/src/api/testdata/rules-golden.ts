/**
 * The `/api/v1/rules` and `/api/v1/alerts` answers of a real Prometheus 2.42 (captured by
 * `npm run update-goldens -- rules-api`, test/e2e/rules-api-capture.ts), typed, for the UI's tests.
 */
import type { AlertsData, ApiSuccess, RulesData } from '../../../../src/query/index.js';
// Typed by hand: the inferred type of the JSON is looser than the API types (optional keys become `undefined`).
import golden from './prometheus-rules-api.json';

/** The golden's contents. */
export interface RulesGolden {
  readonly capturedFrom: string;
  /** When the answers were captured: "now" for anything that shows an age. */
  readonly capturedAtMs: number;
  readonly rules: ApiSuccess<RulesData>;
  readonly rulesTypeAlert: ApiSuccess<RulesData>;
  readonly rulesTypeRecord: ApiSuccess<RulesData>;
  readonly alerts: ApiSuccess<AlertsData>;
}

/** The golden. */
export const RULES_GOLDEN = golden as unknown as RulesGolden;
