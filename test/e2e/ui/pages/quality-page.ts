/**
 * Page object of the Quality page (`/quality`): the tests speak in samples, filters and the
 * detail's texts; this file knows the selectors (`data-testid`s of web/src/pages/Quality).
 */
import type { Locator, Page } from 'playwright-core';

/** The Quality page and its sample browser. */
export class QualityPage {
  constructor(readonly page: Page) {}

  /** The list's rows, newest first. */
  rows(): Locator {
    return this.page.getByTestId('sample-row');
  }

  /** The ids of the listed samples, once the list (or its empty state) is there. */
  async sampleIds(timeoutMs = 30_000): Promise<string[]> {
    await this.page.locator('[data-testid="sample-list"], [data-testid="samples-empty"]').first().waitFor({ timeout: timeoutMs });
    return this.rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-sample') ?? ''));
  }

  /** Picks a dimension in the filter bar. */
  async filterDimension(dimension: string): Promise<void> {
    await this.page.getByTestId('filter-dimension').selectOption(dimension);
  }

  /** Picks a flag in the filter bar. */
  async filterFlag(flag: string): Promise<void> {
    await this.page.getByTestId('filter-flag').selectOption(flag);
  }

  /** Opens a sample's detail and waits for it. */
  async open(id: string, timeoutMs = 30_000): Promise<Locator> {
    await this.page.locator(`[data-testid="sample-row"][data-sample="${id}"] button`).click();
    const detail = this.page.locator(`[data-testid="sample-detail"][data-sample="${id}"]`);
    await detail.waitFor({ timeout: timeoutMs });
    return detail;
  }

  /** The detail's response as the reader sees it (its text, not markup). */
  responseText(): Promise<string> {
    return this.page.getByTestId('sample-response').innerText();
  }

  /** The evaluations' detail texts. */
  evaluationDetails(): Promise<string[]> {
    return this.page.getByTestId('evaluation-detail').allInnerTexts();
  }
}
