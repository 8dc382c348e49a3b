/**
 * The Cost page's part from `/api/v1/cost/summary`: the catalog's date, what each component costs
 * now, the right-sizing findings in words and the compute- vs memory-bound verdict of each replica
 * with its inputs and reason. Every text from the server is rendered as text (React escapes it),
 * never as HTML: a finding or a reason is data.
 */
import type { ReactNode } from 'react';
import type { CostSummaryData } from '../../../../src/query/index.js';
import { formatDateTime, formatValue } from '../../format/units.js';
import { sortedComponents, sortedFindings, sortedVerdicts, totalPerHour } from './cost-model.js';

/** What the view shows: the summary once it arrived, and the last error. */
export interface CostSummaryViewProps {
  readonly summary: CostSummaryData | undefined;
  readonly error?: string;
}

const ratio = (v: number | null): string => formatValue(v, 'ratio');

/** The line above the tables: the time, the total, the idle GPUs and the catalog's date. */
export function headline(s: CostSummaryData): string {
  return (
    `At ${formatDateTime(s.time * 1000)}: ${formatValue(totalPerHour(s), 'dollars/h')} for ${s.components.length} components; ` +
    `${s.idle.gpus} idle GPUs costing ${formatValue(s.idle.dollarsPerHour, 'dollars/h')}. ` +
    `Prices of ${s.catalog.takenOn} (${s.catalog.region}, ${s.catalog.instanceTypes} instance types).`
  );
}

/** The view (server-renderable, for the unit tests). */
export function CostSummaryView({ summary, error }: CostSummaryViewProps): ReactNode {
  const state = summary !== undefined ? 'ready' : error !== undefined ? 'error' : 'loading';
  return (
    <section className="cost-summary" data-testid="cost-summary" data-state={state} aria-label="Cost summary">
      {error !== undefined && (
        <div className="page-error" role="alert">
          Cost summary: {error}
        </div>
      )}
      {summary === undefined ? (
        error === undefined && <div className="skeleton cost-skeleton" aria-label="Loading" />
      ) : (
        <>
          <p className="cost-head muted" data-testid="cost-catalog">
            {headline(summary)}
          </p>
          <div className="cost-columns">
            <div>
              <h2 className="row-title">Right-sizing findings</h2>
              {summary.findings.length === 0 ? (
                <p className="muted" data-testid="cost-findings-empty">
                  No idle GPUs, over-provisioned components or engines below their benchmark.
                </p>
              ) : (
                <ul className="cost-findings" data-testid="cost-findings">
                  {sortedFindings(summary).map((f) => (
                    <li key={`${f.kind}|${f.text}`} className="cost-finding" data-testid="cost-finding" data-kind={f.kind}>
                      <span className="chip">{f.kind}</span> <span className="cost-finding-text">{f.text}</span>{' '}
                      <span className="muted num">{formatValue(f.dollarsPerDay, 'dollars')}/day since {formatDateTime(f.since * 1000, true)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h2 className="row-title">Cost per component now</h2>
              <table className="data-table cost-components" data-testid="cost-components">
                <thead>
                  <tr>
                    <th scope="col">Component</th>
                    <th scope="col" className="numeric">$/h</th>
                    <th scope="col" className="numeric">GPUs</th>
                    <th scope="col" className="numeric">$/1M in</th>
                    <th scope="col" className="numeric">$/1M out</th>
                    <th scope="col" className="numeric">vs benchmark</th>
                  </tr>
                </thead>
                <tbody>
                  {sortedComponents(summary).map((c) => (
                    <tr key={`${c.endpoint}|${c.component}`} data-component={c.component}>
                      <td>
                        {c.component} <span className="muted">{c.model}</span>
                      </td>
                      <td className="numeric num">{formatValue(c.dollarsPerHour, 'dollars/h', { bare: true })}</td>
                      <td className="numeric num">{c.gpus}</td>
                      <td className="numeric num">{formatValue(c.dollarsPerMillionInputTokens, 'dollars')}</td>
                      <td className="numeric num">{formatValue(c.dollarsPerMillionOutputTokens, 'dollars')}</td>
                      <td className="numeric num">{ratio(c.benchmarkEfficiency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          <h2 className="row-title">Compute- vs memory-bound</h2>
          <table className="data-table cost-verdicts" data-testid="cost-verdicts">
            <thead>
              <tr>
                <th scope="col">Replica</th>
                <th scope="col">Bound</th>
                <th scope="col" className="numeric">SM</th>
                <th scope="col" className="numeric">Tensor</th>
                <th scope="col" className="numeric">DRAM</th>
                <th scope="col" className="numeric">Mem copy</th>
                <th scope="col" className="numeric">MFU</th>
                <th scope="col" className="numeric">MBU</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {sortedVerdicts(summary).map((v) => (
                <tr key={`${v.component}|${v.replica}`} data-testid="cost-verdict" data-replica={v.replica} data-bound={v.bound}>
                  <td>
                    {v.replica} <span className="muted">{v.component}</span>
                  </td>
                  <td>{v.bound}</td>
                  <td className="numeric num">{ratio(v.inputs.smActive)}</td>
                  <td className="numeric num">{ratio(v.inputs.tensorActive)}</td>
                  <td className="numeric num">{ratio(v.inputs.dramActive)}</td>
                  <td className="numeric num">{ratio(v.inputs.memCopyUtil)}</td>
                  <td className="numeric num">{ratio(v.inputs.mfu)}</td>
                  <td className="numeric num">{ratio(v.inputs.mbu)}</td>
                  <td className="cost-reason" data-testid="cost-reason">
                    {v.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
