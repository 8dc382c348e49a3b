/** Refresh now, and the auto-refresh interval (off, 5s, 15s, 30s, 1m). */
import type { ReactNode } from 'react';
import { refreshNow } from '../../state/refresh.js';
import { REFRESH_OPTIONS } from '../../state/time-range.js';

/** The control. */
export function RefreshPicker({ refreshMs, onChange }: { refreshMs: number; onChange: (ms: number) => void }): ReactNode {
  return (
    <div className="btn-group">
      <button type="button" className="btn" onClick={refreshNow} aria-label="Refresh now" title="Refresh now" data-testid="refresh-now">
        <span aria-hidden="true">↻</span>
      </button>
      <select
        className="input refresh-select"
        aria-label="Auto refresh interval"
        data-testid="refresh-interval"
        value={String(refreshMs)}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {REFRESH_OPTIONS.map((o) => (
          <option key={o.ms} value={String(o.ms)}>
            {o.ms === 0 ? 'Auto: off' : `Every ${o.text}`}
          </option>
        ))}
      </select>
    </div>
  );
}
