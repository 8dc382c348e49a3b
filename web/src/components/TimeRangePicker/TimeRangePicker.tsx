/**
 * The time range: relative presets (last 5m … 24h) and an absolute from/to, both in the URL.
 * Dragging across a chart sets an absolute range too; "Back to live" returns to the last preset.
 */
import { useState, type ReactNode } from 'react';
import { formatDateTime } from '../../format/units.js';
import { describeRange, RANGE_PRESETS, type TimeRange } from '../../state/time-range.js';
import { usePopover } from '../Popover/use-popover.js';
import './TimeRangePicker.css';

/** `datetime-local` value (local time, minutes) for Unix ms. */
export function toLocalInput(ms: number): string {
  return formatDateTime(ms, true).replace(' ', 'T');
}

/** Unix ms for a `datetime-local` value; undefined when empty or invalid. */
export function fromLocalInput(text: string): number | undefined {
  if (text === '') return undefined;
  const t = new Date(text).getTime();
  return Number.isNaN(t) ? undefined : t;
}

/** Props of `TimeRangePicker`. */
export interface TimeRangePickerProps {
  readonly range: TimeRange;
  readonly onChange: (r: TimeRange) => void;
}

/** The picker. */
export function TimeRangePicker({ range, onChange }: TimeRangePickerProps): ReactNode {
  const pop = usePopover();
  const now = Date.now();
  const current = range.kind === 'absolute' ? range : { fromMs: now - range.durationMs, toMs: now };
  const [from, setFrom] = useState(toLocalInput(current.fromMs));
  const [to, setTo] = useState(toLocalInput(current.toMs));
  const f = fromLocalInput(from);
  const t = fromLocalInput(to);
  const valid = f !== undefined && t !== undefined && t > f;
  return (
    <div className="popover-anchor" ref={pop.anchorRef}>
      <button
        type="button"
        className="btn range-button"
        aria-haspopup="dialog"
        aria-expanded={pop.open}
        data-testid="time-range"
        onClick={() => {
          setFrom(toLocalInput(current.fromMs));
          setTo(toLocalInput(current.toMs));
          pop.toggle();
        }}
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
        {describeRange(range, (ms) => formatDateTime(ms, true))}
        <span className="caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {pop.open && (
        <div className="popover range-popover" role="dialog" aria-label="Time range">
          <div className="range-presets" role="group" aria-label="Relative ranges">
            {RANGE_PRESETS.map((p) => (
              <button
                key={p.text}
                type="button"
                className="btn small ghost"
                aria-pressed={range.kind === 'relative' && range.durationMs === p.durationMs}
                onClick={() => {
                  onChange({ kind: 'relative', durationMs: p.durationMs });
                  pop.close();
                }}
              >
                Last {p.text}
              </button>
            ))}
          </div>
          <form
            className="range-absolute"
            onSubmit={(e) => {
              e.preventDefault();
              if (!valid) return;
              onChange({ kind: 'absolute', fromMs: f, toMs: t });
              pop.close();
            }}
          >
            <div className="range-absolute-title">Absolute range</div>
            <label>
              From
              <input className="input" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
            </label>
            <label>
              To
              <input className="input" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
            </label>
            {!valid && <div className="range-error">“To” must be after “From”.</div>}
            <button type="submit" className="btn primary" disabled={!valid}>
              Apply
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
