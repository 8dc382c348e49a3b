/**
 * Warnings and infos a query collects, as Prometheus' `util/annotations`: de-duplicated by text,
 * kept in the order first seen, returned in the API's `warnings` / `infos` arrays.
 */
export class Annotations {
  private readonly warningSet = new Set<string>();
  private readonly infoSet = new Set<string>();

  /** Records a warning (the result may be wrong or incomplete). */
  warn(message: string): void {
    this.warningSet.add(message);
  }

  /** Records an info (the result is right, but the query may not mean what it says). */
  info(message: string): void {
    this.infoSet.add(message);
  }

  /** Adds everything `other` holds. */
  merge(other: Annotations): void {
    for (const w of other.warningSet) this.warningSet.add(w);
    for (const i of other.infoSet) this.infoSet.add(i);
  }

  get warnings(): string[] {
    return [...this.warningSet];
  }

  get infos(): string[] {
    return [...this.infoSet];
  }
}
