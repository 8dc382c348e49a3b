/** Page object of Explore (`/explore`): the PromQL editor, the run button, graph and table. */
import type { Locator, Page } from 'playwright-core';

/** The Explore page. */
export class ExplorePage {
  constructor(readonly page: Page) {}

  /** Opens `/explore` with an optional query string (a shared URL). */
  async open(base: string, search = ''): Promise<void> {
    await this.page.goto(`${base}/explore${search}`);
    await this.editor().waitFor({ state: 'visible' });
  }

  /** The CodeMirror editor. */
  editor(): Locator {
    return this.page.getByTestId('explore-editor');
  }

  /** Replaces the editor's text with `expr`. */
  async type(expr: string): Promise<void> {
    const content = this.editor().locator('.cm-content');
    await content.click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.press('Backspace');
    await this.page.keyboard.insertText(expr);
  }

  /** The autocomplete options currently offered. */
  async completions(): Promise<string[]> {
    const list = this.page.locator('.cm-tooltip-autocomplete li');
    await list.first().waitFor({ state: 'visible' });
    return list.allInnerTexts();
  }

  /** Runs the query and waits for a result or an error. */
  async run(): Promise<void> {
    await this.page.getByTestId('explore-run').click();
    await this.page.locator('[data-testid="explore-result"][data-state="ready"], [data-testid="explore-result"][data-state="error"], [data-testid="explore-result"][data-state="empty"]').waitFor();
  }

  /** The result area. */
  result(): Locator {
    return this.page.getByTestId('explore-result');
  }
}
