/**
 * The dashboard's variables as controls: label variables as multi-selects fed by
 * `/api/v1/label/<name>/values`, text variables (the KV pressure band) as inputs, custom
 * variables as selects. The quantile variable has its own toggle and hidden variables (the
 * hex-grid filter) show as the selection instead.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { Dashboard, Variable } from '../../../../src/dashboards/types.js';
import { variableSelector } from '../../../../src/dashboards/index.js';
import { useLabelValues } from '../../api/use-label-values.js';
import { quantileVariable } from '../../panels/model/panel-queries.js';
import { MultiSelect } from '../MultiSelect/MultiSelect.js';
import './VariableBar.css';

/** Props of `VariableBar`. */
export interface VariableBarProps {
  readonly dashboard: Dashboard;
  readonly values: Readonly<Record<string, readonly string[]>>;
  readonly startMs: number;
  readonly endMs: number;
  readonly onChange: (name: string, values: readonly string[]) => void;
}

/** The bar. */
export function VariableBar(p: VariableBarProps): ReactNode {
  const q = quantileVariable(p.dashboard);
  const shown = p.dashboard.variables.filter((v) => v.hidden !== true && v.name !== q);
  const any = shown.some((v) => (p.values[v.name]?.length ?? 0) > 0 && v.kind === 'labelValues');
  return (
    <div className="variable-bar" role="toolbar" aria-label="Dashboard variables">
      {shown.map((v) =>
        v.kind === 'labelValues' ? (
          <LabelVariable key={v.name} v={v} {...p} />
        ) : v.kind === 'text' ? (
          <TextVariable key={v.name} v={v} value={p.values[v.name]?.[0] ?? v.default ?? ''} onChange={(t) => p.onChange(v.name, t === (v.default ?? '') ? [] : [t])} />
        ) : (
          <label key={v.name} className="var-select">
            <span className="var-label">{v.label}</span>
            <select className="input" value={p.values[v.name]?.[0] ?? v.default ?? ''} onChange={(e) => p.onChange(v.name, [e.target.value])}>
              {(v.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.text}
                </option>
              ))}
            </select>
          </label>
        ),
      )}
      {any && (
        <button
          type="button"
          className="btn ghost small"
          onClick={() => {
            for (const v of shown) if (v.kind === 'labelValues' && (p.values[v.name]?.length ?? 0) > 0) p.onChange(v.name, []);
          }}
        >
          Reset filters
        </button>
      )}
    </div>
  );
}

function LabelVariable({ v, values, startMs, endMs, onChange, dashboard }: VariableBarProps & { v: Variable }): ReactNode {
  // The options narrowed by the variables before this one (`up{endpoint=~"$endpoint"}`); its own
  // selection must not narrow its options.
  const others = { ...values, [v.name]: [] };
  const selector = variableSelector(v, others, dashboard.variables);
  // Options load when the picker first opens: they are not worth a request before the panels'.
  const [wanted, setWanted] = useState(false);
  const lv = useLabelValues(selector === '' ? undefined : selector, v.labelName ?? v.name, startMs, endMs, wanted);
  return (
    <MultiSelect
      label={v.label}
      options={lv.values}
      error={lv.error}
      selected={values[v.name] ?? []}
      onChange={(vals) => onChange(v.name, vals)}
      onOpen={() => setWanted(true)}
      testId={`var-${v.name}`}
    />
  );
}

function TextVariable({ v, value, onChange }: { v: Variable; value: string; onChange: (t: string) => void }): ReactNode {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <label className="var-text" data-testid={`var-${v.name}`}>
      <span className="var-label">{v.label}</span>
      <input
        className="input"
        value={text}
        size={Math.max(5, text.length + 1)}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => onChange(text.trim())}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(text.trim());
        }}
      />
    </label>
  );
}
