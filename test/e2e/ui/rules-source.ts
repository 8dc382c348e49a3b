/**
 * Where the browser tests of the Alerts page get `/api/v1/rules` and `/api/v1/alerts` from:
 * the live server (`INFERSIGHT_RULES_SOURCE=live`: the demo's own rules engine), or the answers
 * of a real Prometheus 2.42 (web/src/api/testdata/prometheus-rules-api.json, the default), served
 * to the page with Playwright's `page.route` while everything else comes from the demo. Either
 * way the tests read the same answers as the page (`rulesAnswer`, `alertsAnswer`) and check the
 * page against them.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { ActiveAlert, ApiSuccess, AlertsData, RulesData } from '../../../src/query/index.js';

/** `live` or `golden`. */
export const RULES_SOURCE: 'live' | 'golden' = process.env.INFERSIGHT_RULES_SOURCE === 'live' ? 'live' : 'golden';

interface Golden {
  readonly rules: ApiSuccess<RulesData>;
  readonly alerts: ApiSuccess<AlertsData>;
}

const GOLDEN = JSON.parse(readFileSync(new URL('../../../web/src/api/testdata/prometheus-rules-api.json', import.meta.url), 'utf8')) as Golden;

/** What the page is served: the golden's answers, or the live server's. */
export interface RulesAnswers {
  readonly rules: RulesData;
  readonly alerts: readonly ActiveAlert[];
}

/**
 * Prepares `page` and returns the answers it will see. In golden mode the rules answer is the
 * golden's and the alerts answer is `alerts` (default: the golden's), both served by `page.route`;
 * in live mode nothing is routed and both are read from `base`.
 */
export async function useRulesSource(page: Page, base: string, alerts?: readonly ActiveAlert[]): Promise<RulesAnswers> {
  if (RULES_SOURCE === 'live') {
    const get = async <T>(p: string): Promise<T> => ((await (await fetch(`${base}${p}`)).json()) as ApiSuccess<T>).data;
    return { rules: await get<RulesData>('/api/v1/rules'), alerts: (await get<AlertsData>('/api/v1/alerts')).alerts };
  }
  const served = { status: 'success', data: { alerts: alerts ?? GOLDEN.alerts.data.alerts } };
  await page.route(/\/api\/v1\/rules(\?|$)/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(GOLDEN.rules) }));
  await page.route(/\/api\/v1\/alerts(\?|$)/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(served) }));
  return { rules: GOLDEN.rules.data, alerts: served.data.alerts };
}

/** The golden's alerts (golden mode rewrites their identity onto the demo's instances). */
export function goldenAlerts(): readonly ActiveAlert[] {
  return GOLDEN.alerts.data.alerts;
}
