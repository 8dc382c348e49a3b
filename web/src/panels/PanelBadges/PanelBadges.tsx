/**
 * Small badges in a panel header: the quantile a latency panel shows (P99), and "fleet-wide"
 * when a hex-grid selection is active but the panel's queries cannot be narrowed by it (front-door
 * metrics carry no instance label).
 */
import type { ReactNode } from 'react';

/** `0.99` → `P99`, `0.999` → `P99.9`. */
export function quantileLabel(q: string): string {
  const n = Number(q) * 100;
  return `P${Math.round(n * 100) / 100}`;
}

/** The badges. */
export function PanelBadges(p: { readonly quantile?: string; readonly fleetWide?: boolean }): ReactNode {
  return (
    <>
      {p.quantile !== undefined && (
        <span className="badge" title="Quantile of the latency queries (toggle above the panels)">
          {quantileLabel(p.quantile)}
        </span>
      )}
      {p.fleetWide === true && (
        <span className="badge" title="These metrics have no instance label: the panel shows the whole fleet, not the selection">
          fleet-wide
        </span>
      )}
    </>
  );
}
