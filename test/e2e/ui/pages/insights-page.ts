/**
 * Page object of the Insights page: the tests speak in hex cells, panels and toggles, and this
 * file knows the selectors (`data-testid`s of web/, listed in web/README.md).
 */
import type { Locator, Page } from 'playwright-core';

// The callbacks below run in the page; these declare the little of the DOM they touch (the
// project's tsconfig has no DOM library).
declare const document: { querySelector(selector: string): unknown; querySelectorAll(selector: string): { length: number } };
declare const window: { __infersight?: UiProbe };

/** What the UI publishes for tests and benchmarks on `window.__infersight`. */
export interface UiProbe {
  pendingQueries: number;
  renders: number;
  lastRenderMs: number;
}

/** The Insights page (`/`). */
export class InsightsPage {
  constructor(readonly page: Page) {}

  /** Opens `/` (with an optional query string) and waits until every panel has settled. */
  async open(base: string, search = '', timeoutMs = 30_000): Promise<void> {
    await this.page.goto(`${base}/${search}`);
    await this.settled(timeoutMs);
  }

  /** Waits until no query is in flight and no panel shows its loading state. */
  async settled(timeoutMs = 30_000): Promise<void> {
    await this.page.waitForFunction(
      () => {
        const probe = window.__infersight;
        return probe !== undefined && probe.pendingQueries === 0 && document.querySelector('[data-testid^="panel-"][data-state="loading"]') === null && document.querySelectorAll('[data-testid^="panel-"]').length > 0;
      },
      undefined,
      { timeout: timeoutMs, polling: 50 },
    );
  }

  /** The probe's current values. */
  probe(): Promise<UiProbe> {
    return this.page.evaluate(() => ({ ...(window.__infersight as UiProbe) }));
  }

  /** Every hex cell. */
  cells(): Locator {
    return this.page.getByTestId('hex-cell');
  }

  /** The cell of one instance. */
  cell(instance: string): Locator {
    return this.page.locator(`[data-testid="hex-cell"][data-instance="${instance}"]`);
  }

  /** The instance names of all cells, sorted. */
  async cellInstances(): Promise<string[]> {
    const names = await this.cells().evaluateAll((els) => els.map((e) => e.getAttribute('data-instance') ?? ''));
    return names.sort();
  }

  /** Each cell's health (`data-health`: down, critical, warning, starting, healthy, idle, nodata), by its instance (or view value). */
  async cellHealth(): Promise<Record<string, string>> {
    const pairs = await this.cells().evaluateAll((els) => els.map((e) => [e.getAttribute('data-instance') ?? '', e.getAttribute('data-health') ?? ''] as const));
    return Object.fromEntries(pairs);
  }

  /** The instance table's Health column, by the row's instance. */
  async tableHealth(): Promise<Record<string, string>> {
    const pairs = await this.panel('instance-table')
      .getByTestId('table-row')
      .evaluateAll((els) => els.map((e) => [(e.getAttribute('data-key') ?? '').split('\u0001')[0], e.querySelector('[data-testid="table-health"]')?.getAttribute('data-health') ?? ''] as const));
    return Object.fromEntries(pairs);
  }

  /** Hovers a cell and returns the tooltip's text. */
  async hover(instance: string): Promise<string> {
    await this.cell(instance).hover();
    const tip = this.page.getByTestId('hex-tooltip');
    await tip.waitFor({ state: 'visible' });
    return tip.innerText();
  }

  /** A panel by its id in src/dashboards. */
  panel(id: string): Locator {
    return this.page.getByTestId(`panel-${id}`);
  }

  /** The ids of all panels on the page. */
  panelIds(): Promise<string[]> {
    return this.page.locator('[data-testid^="panel-"]').evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').slice('panel-'.length)));
  }

  /** The interpolated PromQL a panel ran, one string per query. */
  async panelQueries(id: string): Promise<string[]> {
    const raw = await this.panel(id).getAttribute('data-queries');
    return raw === null ? [] : (JSON.parse(raw) as string[]);
  }

  /** The PromQL of every panel, by panel id. */
  async allQueries(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const id of await this.panelIds()) out[id] = await this.panelQueries(id);
    return out;
  }

  /** Picks a quantile on the P50/P90/P99 toggle (`P99`). */
  async setQuantile(label: 'P50' | 'P90' | 'P99'): Promise<void> {
    await this.page.getByTestId('quantile-toggle').getByRole('radio', { name: label }).click();
    await this.settled();
  }

  /** The AZ traffic rows that are flagged, as `az → flag`. */
  async azFlags(): Promise<Record<string, string>> {
    return this.page
      .getByTestId('az-traffic')
      .locator('[data-flag]')
      .evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-az') ?? '', e.getAttribute('data-flag') ?? ''])));
  }
}
