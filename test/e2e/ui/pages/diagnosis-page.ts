/**
 * Page object of the Diagnosis page (`/diagnosis?insight=<id>`) and of the open-insight banner on
 * Insights: the tests speak in insights, causes, evidence charts and scope cells; this file knows
 * the selectors (`data-testid`s of web/src/pages/Diagnosis).
 */
import type { Locator, Page } from 'playwright-core';

/** The banner on Insights and the Diagnosis page it links to. */
export class DiagnosisPage {
  constructor(readonly page: Page) {}

  /** The banner's links, one per open insight. */
  insightLinks(): Locator {
    return this.page.getByTestId('insight-link');
  }

  /** Waits until the page has its insight, its causes and the diagnosis' why-not lines. */
  async settled(timeoutMs = 30_000): Promise<void> {
    await this.page.locator('[data-testid="diagnosis-page"][data-state="ready"]').waitFor({ timeout: timeoutMs });
    await this.page.getByTestId('why-not').waitFor({ timeout: timeoutMs });
  }

  /** The insight shown (its id) and whether it is open. */
  async insight(): Promise<{ id: string | null; state: string }> {
    return { id: await this.page.getByTestId('diagnosis').getAttribute('data-insight'), state: (await this.page.getByTestId('insight-state').textContent()) ?? '' };
  }

  /** The ranked causes, best first. */
  async causes(): Promise<string[]> {
    return this.page.getByTestId('cause').evaluateAll((els) => els.map((e) => e.getAttribute('data-cause') ?? ''));
  }

  /** The causes with a why-not line. */
  async ruledOut(): Promise<string[]> {
    return this.page.locator('[data-testid="why-not"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-cause') ?? ''));
  }

  /** A chart's panel state (`loading`, `ready`, `empty`, `error`) once it has left loading: the symptom's (`symptom-chart`) or the n-th evidence chart. */
  async chartState(which: 'symptom-chart' | 'evidence-chart', n = 0, timeoutMs = 30_000): Promise<string> {
    const panel = this.page.getByTestId(which).nth(n).locator('[data-testid^="panel-"]');
    await panel.and(this.page.locator(':not([data-state="loading"])')).waitFor({ timeout: timeoutMs });
    return (await panel.getAttribute('data-state')) ?? '';
  }

  /** The cells of the scope grid that are selected (the scope's replicas), once the grid has cells. */
  async selectedCells(timeoutMs = 30_000): Promise<string[]> {
    const cells = this.page.locator('[data-testid="scope-grid"] [data-testid="hex-cell"]');
    await cells.first().waitFor({ timeout: timeoutMs });
    return this.page.locator('[data-testid="scope-grid"] [data-testid="hex-cell"][aria-selected="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-instance') ?? ''));
  }
}
