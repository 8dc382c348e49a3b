/** Page object of Targets (`/targets`). */
import type { Locator, Page } from 'playwright-core';

/** The Targets page. */
export class TargetsPage {
  constructor(readonly page: Page) {}

  /** Opens `/targets` and waits for the table. */
  async open(base: string): Promise<void> {
    await this.page.goto(`${base}/targets`);
    await this.table().waitFor({ state: 'visible' });
  }

  /** The targets table. */
  table(): Locator {
    return this.page.getByTestId('targets-table');
  }
}
