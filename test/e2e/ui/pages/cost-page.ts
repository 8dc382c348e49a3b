/**
 * Page object of the Cost page (`/cost`): the tests speak in findings, verdicts and panels; this
 * file knows the selectors (`data-testid`s of web/src/pages/Cost and the dashboard's panels).
 */
import type { Locator, Page } from 'playwright-core';
import { InsightsPage } from './insights-page.js';

/** The Cost page. */
export class CostPage {
  private readonly panels: InsightsPage;

  constructor(readonly page: Page) {
    this.panels = new InsightsPage(page);
  }

  /** Opens `/cost` (with an optional query string) and waits until the summary and every panel have settled. */
  async open(base: string, search = '', timeoutMs = 30_000): Promise<void> {
    await this.page.goto(`${base}/cost${search}`);
    await this.page.locator('[data-testid="cost-summary"]:not([data-state="loading"])').waitFor({ timeout: timeoutMs });
    await this.panels.settled(timeoutMs);
  }

  /** The summary's state: `ready`, `error` or `loading`. */
  async summaryState(): Promise<string> {
    return (await this.page.getByTestId('cost-summary').getAttribute('data-state')) ?? '';
  }

  /** The findings as shown, costliest first: kind and text. */
  async findings(): Promise<{ kind: string; text: string }[]> {
    return this.page.getByTestId('cost-finding').evaluateAll((els) =>
      els.map((e) => ({ kind: e.getAttribute('data-kind') ?? '', text: (e as unknown as { querySelector(s: string): { textContent: string | null } | null }).querySelector('.cost-finding-text')?.textContent ?? '' })),
    );
  }

  /** The verdict rows: replica, bound, and the reason's text and whether it holds any element (it must not). */
  async verdicts(): Promise<{ replica: string; bound: string; reason: string; reasonElements: number }[]> {
    return this.page.getByTestId('cost-verdict').evaluateAll((els) =>
      els.map((e) => {
        const reason = (e as unknown as { querySelector(s: string): { textContent: string | null; childElementCount: number } | null }).querySelector('[data-testid="cost-reason"]');
        return { replica: e.getAttribute('data-replica') ?? '', bound: e.getAttribute('data-bound') ?? '', reason: reason?.textContent ?? '', reasonElements: reason?.childElementCount ?? -1 };
      }),
    );
  }

  /** A dashboard panel (`cost-per-model`, …). */
  panel(id: string): Locator {
    return this.page.getByTestId(`panel-${id}`);
  }

  /** The top bar's link to the page. */
  navLink(): Locator {
    return this.page.getByTestId('nav-cost');
  }
}
