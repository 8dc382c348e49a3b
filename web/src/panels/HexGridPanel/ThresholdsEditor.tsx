/**
 * The hex grid's health thresholds, editable: per rule a warning and a critical value in the
 * rule's display unit (percent for ratios), kept in the URL (`th-<refId>=w,c`) so a shared link
 * colours the fleet the same way.
 */
import { useState, type ReactNode } from 'react';
import type { Unit } from '../../../../src/dashboards/types.js';
import { usePopover } from '../../components/Popover/use-popover.js';
import type { BuiltQuery } from '../model/panel-queries.js';
import { ruleLimits, type HealthRule } from './health.js';

/** Props of `ThresholdsEditor`. */
export interface ThresholdsEditorProps {
  readonly rules: readonly HealthRule[];
  readonly defaults: readonly HealthRule[];
  readonly queries: readonly BuiltQuery[];
  readonly overrides: Readonly<Record<string, readonly number[]>>;
  readonly onChange: (refId: string, limits: readonly number[] | undefined) => void;
}

const scale = (u: Unit): number => (u === 'ratio' ? 100 : 1);
const suffix = (u: Unit): string => (u === 'ratio' || u === 'percent' ? '%' : u === 'seconds' ? 's' : '');

/** The button and its popover. */
export function ThresholdsEditor(p: ThresholdsEditorProps): ReactNode {
  const pop = usePopover();
  if (p.rules.length === 0) return null;
  return (
    <div className="popover-anchor" ref={pop.anchorRef}>
      <button type="button" className="btn small ghost" aria-expanded={pop.open} aria-haspopup="dialog" onClick={pop.toggle} data-testid="hex-thresholds">
        Thresholds
      </button>
      {pop.open && (
        <div className="popover thresholds-popover" role="dialog" aria-label="Health thresholds" style={{ right: 0, top: 30 }}>
          <p className="muted small-print">A cell takes the worst state of these rules.</p>
          {p.rules.map((r) => {
            const q = p.queries.find((x) => x.refId === r.refId);
            return <RuleRow key={r.refId} rule={r} unit={q?.unit ?? 'none'} title={q?.title ?? r.refId} overridden={p.overrides[r.refId] !== undefined} onChange={p.onChange} />;
          })}
        </div>
      )}
    </div>
  );
}

function RuleRow(p: { rule: HealthRule; unit: Unit; title: string; overridden: boolean; onChange: ThresholdsEditorProps['onChange'] }): ReactNode {
  const [w, c] = ruleLimits(p.rule);
  const k = scale(p.unit);
  const [warn, setWarn] = useState(Number.isNaN(w) ? '' : String(+(w * k).toPrecision(6)));
  const [crit, setCrit] = useState(Number.isNaN(c) ? '' : String(+(c * k).toPrecision(6)));
  const apply = (): void => {
    const wv = Number(warn) / k;
    const cv = Number(crit) / k;
    if (warn !== '' && crit !== '' && Number.isFinite(wv) && Number.isFinite(cv)) p.onChange(p.rule.refId, [Math.min(wv, cv), Math.max(wv, cv)]);
  };
  return (
    <fieldset className="threshold-row">
      <legend>{p.title}</legend>
      <label>
        <span className="th-icon warning" aria-hidden="true">
          ▲
        </span>
        warning ≥
        <input className="input" inputMode="decimal" value={warn} onChange={(e) => setWarn(e.target.value)} onBlur={apply} aria-label={`${p.title} warning threshold`} />
        {suffix(p.unit)}
      </label>
      <label>
        <span className="th-icon critical" aria-hidden="true">
          ✖
        </span>
        critical ≥
        <input className="input" inputMode="decimal" value={crit} onChange={(e) => setCrit(e.target.value)} onBlur={apply} aria-label={`${p.title} critical threshold`} />
        {suffix(p.unit)}
      </label>
      {p.overridden && (
        <button type="button" className="btn small ghost" onClick={() => p.onChange(p.rule.refId, undefined)}>
          Reset
        </button>
      )}
    </fieldset>
  );
}
