/**
 * A row of mutually exclusive options (P50/P90/P99, hex-grid views, Explore's tabs): a radio
 * group with arrow-key navigation, or a tab list when `tabs` is set.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One option. */
export interface SegmentOption {
  readonly value: string;
  readonly label: string;
  readonly title?: string;
}

/** Props of `SegmentedControl`. */
export interface SegmentedControlProps {
  readonly options: readonly SegmentOption[];
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly ariaLabel: string;
  /** Render as a tab list (`role="tablist"`) rather than a radio group. */
  readonly tabs?: boolean;
  readonly testId?: string;
}

/** The control. */
export function SegmentedControl(p: SegmentedControlProps): ReactNode {
  const ref = useRef<HTMLDivElement>(null);
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const i = p.options.findIndex((o) => o.value === p.value);
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (i + 1) % p.options.length;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (i - 1 + p.options.length) % p.options.length;
    if (next < 0) return;
    e.preventDefault();
    p.onChange(p.options[next].value);
    ref.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };
  return (
    <div ref={ref} className="segmented" role={p.tabs === true ? 'tablist' : 'radiogroup'} aria-label={p.ariaLabel} data-testid={p.testId} onKeyDown={onKey}>
      {p.options.map((o) => {
        const on = o.value === p.value;
        return (
          <button
            key={o.value}
            type="button"
            role={p.tabs === true ? 'tab' : 'radio'}
            aria-checked={p.tabs === true ? undefined : on}
            aria-selected={p.tabs === true ? on : undefined}
            tabIndex={on ? 0 : -1}
            title={o.title}
            data-value={o.value}
            onClick={() => p.onChange(o.value)}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
