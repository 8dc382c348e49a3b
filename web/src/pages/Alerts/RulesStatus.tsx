/**
 * The frame the Alerts and Rules pages draw their list in (`data-state` = `loading|error|empty|ready`,
 * as panels): a skeleton before the first answer, a progress line while a refresh runs, the
 * error (a server without the rules API answers 404: said in words), else the page's content.
 */
import type { ReactNode } from 'react';
import type { RulesData } from '../../../../src/query/index.js';
import type { ApiResource } from '../../api/use-api-resource.js';

/** Props of `RulesStatus`. */
export interface RulesStatusProps {
  readonly res: ApiResource<RulesData> | undefined;
  readonly testId: string;
  /** What the page lists, for the messages ("alerting rules"). */
  readonly what: string;
  /** Whether an answer has nothing for this page. */
  readonly isEmpty: (data: RulesData) => boolean;
  readonly children: (data: RulesData, atMs: number) => ReactNode;
}

/** The frame. */
export function RulesStatus({ res, testId, what, isEmpty, children }: RulesStatusProps): ReactNode {
  const data = res?.value;
  const status = res === undefined ? 'loading' : data === undefined ? 'error' : isEmpty(data) ? 'empty' : 'ready';
  return (
    <section className="panel targets-body" data-testid={testId} data-state={status} aria-busy={res?.loading ?? true}>
      {res?.loading === true && <div className="progress-line" role="progressbar" aria-label={`Loading ${what}`} />}
      {res === undefined ? (
        <div className="skeleton" style={{ height: 200 }} />
      ) : data === undefined ? (
        <div className="panel-state error" role="alert">
          <span className="state-icon" aria-hidden="true">
            ✖
          </span>
          <div>
            <div className="state-title">{res.errorStatus === 404 ? 'This server has no rules API' : `Could not load the ${what}`}</div>
            <div className="state-text mono">{res.errorStatus === 404 ? 'GET /api/v1/rules answered 404 Not Found.' : res.error}</div>
          </div>
        </div>
      ) : (
        children(data, res.atMs)
      )}
    </section>
  );
}
