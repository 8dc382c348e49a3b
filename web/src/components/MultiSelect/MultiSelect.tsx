/**
 * A multi-value picker for a label variable: a button that names the selection ("All", one
 * value, or "3 selected") and a popover with a search box, "All", and one checkbox per value.
 * Changes apply at once.
 */
import { useId, useMemo, useState, type ReactNode } from 'react';
import { usePopover } from '../Popover/use-popover.js';
import './MultiSelect.css';

/** Props of `MultiSelect`. */
export interface MultiSelectProps {
  readonly label: string;
  readonly options: readonly string[] | undefined;
  /** Selected values; empty is "all". */
  readonly selected: readonly string[];
  readonly onChange: (values: readonly string[]) => void;
  readonly error?: string;
  /** Called when the popover opens (the options may load then). */
  readonly onOpen?: () => void;
  readonly testId?: string;
}

/** The picker. */
export function MultiSelect(p: MultiSelectProps): ReactNode {
  const pop = usePopover();
  const [filter, setFilter] = useState('');
  const id = useId();
  const options = useMemo(() => {
    const all = [...new Set([...(p.options ?? []), ...p.selected])];
    const f = filter.trim().toLowerCase();
    return f === '' ? all : all.filter((o) => o.toLowerCase().includes(f));
  }, [p.options, p.selected, filter]);
  const summary = p.selected.length === 0 ? 'All' : p.selected.length === 1 ? p.selected[0] : `${p.selected.length} selected`;
  const toggle = (v: string): void => {
    p.onChange(p.selected.includes(v) ? p.selected.filter((s) => s !== v) : [...p.selected, v]);
  };
  return (
    <div className="popover-anchor multiselect" ref={pop.anchorRef} data-testid={p.testId}>
      <button
        type="button"
        className={`btn var-button${p.selected.length > 0 ? ' active' : ''}`}
        aria-haspopup="dialog"
        aria-expanded={pop.open}
        onClick={() => {
          if (!pop.open) p.onOpen?.();
          pop.toggle();
        }}
        title={p.selected.length > 1 ? p.selected.join(', ') : undefined}
      >
        <span className="var-label">{p.label}</span>
        <span className="var-value">{summary}</span>
        <span className="caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {pop.open && (
        <div className="popover multiselect-popover" role="dialog" aria-label={`${p.label} values`}>
          {(p.options?.length ?? 0) > 6 && (
            <input className="input" placeholder={`Filter ${p.label.toLowerCase()}…`} value={filter} onChange={(e) => setFilter(e.target.value)} aria-label={`Filter ${p.label} values`} autoFocus />
          )}
          <div className="multiselect-list" role="group" aria-label={p.label}>
            <label className="ms-option">
              <input type="checkbox" checked={p.selected.length === 0} onChange={() => p.onChange([])} />
              <span>All</span>
            </label>
            {p.options === undefined && p.error === undefined && <div className="muted ms-note">Loading values…</div>}
            {p.error !== undefined && <div className="ms-note error-text">{p.error}</div>}
            {options.map((o, i) => (
              <label key={o} className="ms-option" htmlFor={`${id}-${i}`}>
                <input id={`${id}-${i}`} type="checkbox" checked={p.selected.includes(o)} onChange={() => toggle(o)} />
                <span className="mono">{o}</span>
              </label>
            ))}
            {p.options !== undefined && options.length === 0 && <div className="muted ms-note">No values</div>}
          </div>
        </div>
      )}
    </div>
  );
}
