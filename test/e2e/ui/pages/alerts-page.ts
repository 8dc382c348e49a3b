/** Page object of Alerts (`/alerts`) and Rules (`/rules`): rules, their states and alerts, the filters and Explore links. */
import type { Locator, Page } from 'playwright-core';

// Runs in the page (the project's tsconfig has no DOM library).
declare const document: { querySelector(selector: string): unknown };
declare const window: { __infersight?: { pendingQueries: number } };

/** The Alerts page, and the Rules page beside it. */
export class AlertsPage {
  constructor(readonly page: Page) {}

  /** Opens `/alerts` (or `/rules`) with an optional query string and waits until its list has loaded. */
  async open(base: string, search = '', path: 'alerts' | 'rules' = 'alerts'): Promise<void> {
    await this.page.goto(`${base}/${path}${search}`);
    await this.settled(path);
  }

  /** Waits until no request is in flight and the list is out of its loading state. */
  async settled(path: 'alerts' | 'rules' = 'alerts'): Promise<void> {
    await this.page.waitForFunction(
      (id) => window.__infersight?.pendingQueries === 0 && document.querySelector(`[data-testid="${id}"]:not([data-state="loading"])`) !== null,
      `${path}-list`,
      { polling: 50, timeout: 30_000 },
    );
  }

  /** The list's state (`loading|error|empty|ready`). */
  listState(path: 'alerts' | 'rules' = 'alerts'): Promise<string | null> {
    return this.page.getByTestId(`${path}-list`).getAttribute('data-state');
  }

  /** Every alerting rule card. */
  rules(): Locator {
    return this.page.getByTestId('alert-rule');
  }

  /**
   * One rule's card, by name or by its position in the list: names repeat across groups (the
   * default pack has a `SLOBurnRateFast` per objective), positions do not.
   */
  rule(which: string | number): Locator {
    return typeof which === 'number' ? this.rules().nth(which) : this.page.locator(`[data-testid="alert-rule"][data-rule="${which}"]`);
  }

  /** Rule name → state, in page order. */
  async ruleStates(): Promise<[string, string][]> {
    return this.rules().evaluateAll((els) => els.map((e): [string, string] => [e.getAttribute('data-rule') ?? '', e.getAttribute('data-state') ?? '']));
  }

  /** The states of a rule's alert rows, in page order (the card must be open). */
  alertRowStates(which: string | number): Promise<string[]> {
    return this.rule(which)
      .getByTestId('alert-row')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state') ?? ''));
  }

  /** The counters of the state filter: state → number of rules. */
  async stateCounts(): Promise<Record<string, number>> {
    const pairs = await this.page.getByTestId('alert-state-filter').evaluateAll((els) => els.map((e) => [e.getAttribute('data-value') ?? '', Number(e.getAttribute('data-count'))] as const));
    return Object.fromEntries(pairs);
  }

  /** Toggles one state of the filter. */
  async toggleState(state: 'firing' | 'pending' | 'inactive'): Promise<void> {
    await this.page.locator(`[data-testid="alert-state-filter"][data-value="${state}"]`).click();
    await this.settled();
  }

  /** A rule's Explore link. */
  exploreLink(which: string | number): Locator {
    return this.rule(which).getByTestId('alert-rule-explore');
  }

  /** The Rules page's rows: name → health. */
  async ruleHealth(): Promise<Record<string, string>> {
    const pairs = await this.page.getByTestId('rule-row').evaluateAll((els) => els.map((e) => [e.getAttribute('data-rule') ?? '', e.getAttribute('data-health') ?? ''] as const));
    return Object.fromEntries(pairs);
  }
}
