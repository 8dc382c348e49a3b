/**
 * The frame every panel sits in: title, help, badges and actions in the header; the loading,
 * empty and error states in the body. `data-testid="panel-<id>"`, `data-state` and
 * `data-queries` (the interpolated PromQL, JSON) are the browser tests' handles.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { Panel } from '../../../../src/dashboards/types.js';
import type { PanelStatus } from '../use-panel-data.js';
import './PanelFrame.css';

/** Props of `PanelFrame`. */
export interface PanelFrameProps {
  readonly panel: Pick<Panel, 'id' | 'title' | 'description' | 'emptyHint' | 'emptyTitle'>;
  readonly status: PanelStatus;
  /** A request is in flight (a thin progress line shows; old data stays visible). */
  readonly loading: boolean;
  readonly error?: string;
  /** Interpolated PromQL of the panel's queries. */
  readonly queries: readonly string[];
  /** Whether there is data to draw (the body renders `children` only then). */
  readonly hasData: boolean;
  readonly badges?: ReactNode;
  readonly actions?: ReactNode;
  readonly children?: ReactNode;
  readonly className?: string;
  readonly style?: CSSProperties;
  /** Skeleton shape while nothing has loaded yet. */
  readonly skeleton?: 'chart' | 'stat' | 'table' | 'grid';
  readonly warnings?: readonly string[];
}

/** The frame. */
export function PanelFrame(p: PanelFrameProps): ReactNode {
  const titleId = `panel-title-${p.panel.id}`;
  return (
    <section
      className={`panel ${p.className ?? ''}`}
      style={p.style}
      data-testid={`panel-${p.panel.id}`}
      data-state={p.status}
      data-queries={JSON.stringify(p.queries)}
      aria-labelledby={titleId}
      aria-busy={p.loading}
    >
      <header className="panel-head">
        <h3 id={titleId} className="panel-title">
          {p.panel.title}
        </h3>
        {p.panel.description !== '' && (
          <span className="panel-help" tabIndex={0} role="img" aria-label={p.panel.description} data-tip={p.panel.description}>
            ?
          </span>
        )}
        {p.badges}
        <span className="panel-spacer" />
        {p.actions}
      </header>
      {p.loading && <div className="progress-line" role="progressbar" aria-label={`Loading ${p.panel.title}`} />}
      <div className="panel-body">
        {p.status === 'error' ? (
          <div className="panel-state error" role="alert">
            <span className="state-icon" aria-hidden="true">
              ✖
            </span>
            <div>
              <div className="state-title">Query failed</div>
              <div className="state-text mono">{p.error}</div>
            </div>
          </div>
        ) : p.status === 'empty' ? (
          <div className="panel-state empty">
            <span className="state-icon" aria-hidden="true">
              ∅
            </span>
            <div>
              <div className="state-title">{p.panel.emptyTitle ?? 'No data'}</div>
              <div className="state-text">{p.panel.emptyHint ?? 'No series match the query for this time range and selection.'}</div>
            </div>
          </div>
        ) : p.hasData ? (
          p.children
        ) : (
          <Skeleton kind={p.skeleton ?? 'chart'} />
        )}
      </div>
      {p.warnings !== undefined && p.warnings.length > 0 && p.status === 'ready' && (
        <div className="panel-warning" title={p.warnings.join('\n')}>
          ⚠ {p.warnings[0]}
        </div>
      )}
    </section>
  );
}

function Skeleton({ kind }: { kind: NonNullable<PanelFrameProps['skeleton']> }): ReactNode {
  if (kind === 'stat') return <div className="skeleton" style={{ width: '60%', height: 30, marginTop: 6 }} aria-hidden="true" />;
  if (kind === 'table')
    return (
      <div className="skeleton-rows" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((i) => (
          <div key={i} className="skeleton" style={{ height: 16, width: `${90 - i * 8}%` }} />
        ))}
      </div>
    );
  return <div className="skeleton" style={{ width: '100%', height: '100%', minHeight: 80 }} aria-hidden="true" />;
}
