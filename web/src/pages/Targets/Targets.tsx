/**
 * Targets: the scrape targets (`/api/v1/targets`, Prometheus' shape) grouped by pool, with health,
 * labels, last scrape, its duration and the last error; a filter box (in the URL) narrows them.
 * Refreshes with the page's refresh interval.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, errorMessage, isCanceled, type TargetsData } from '../../api/api-client.js';
import { queriesRendered, queriesStarted } from '../../app/readiness.js';
import { formatAgo, formatSeconds } from '../../format/units.js';
import { useRefreshTick } from '../../state/refresh.js';
import { updateUrlState } from '../../state/url-store.js';
import type { UrlState } from '../../state/url-state.js';
import { groupTargets, type TargetPool } from './targets-model.js';
import '../../panels/TablePanel/TablePanel.css';
import './Targets.css';

const PAGE = 100;

/** The page. */
export function TargetsPage({ state }: { state: UrlState }): ReactNode {
  const tick = useRefreshTick();
  const [data, setData] = useState<{ targets?: TargetsData; error?: string; atMs: number } | undefined>(undefined);
  const [filter, setFilter] = useState(state.filter);
  const [pending, setPending] = useState(false);
  useEffect(() => setFilter(state.filter), [state.filter]);

  useEffect(() => {
    const ac = new AbortController();
    queriesStarted(1);
    let released = false;
    const release = (): void => {
      if (!released) {
        released = true;
        requestAnimationFrame(() => queriesRendered(1));
      }
    };
    setPending(true);
    void api()
      .targets(ac.signal)
      .then(
        (targets) => setData({ targets, atMs: Date.now() }),
        (e: unknown) => {
          if (!isCanceled(e)) setData({ error: errorMessage(e), atMs: Date.now() });
        },
      )
      .finally(() => {
        setPending(false);
        release();
      });
    return () => {
      ac.abort();
      release();
    };
  }, [tick]);

  const pools = useMemo(() => groupTargets(data?.targets?.activeTargets ?? [], state.filter), [data, state.filter]);
  const all = data?.targets?.activeTargets ?? [];
  const down = all.filter((t) => t.health === 'down').length;
  const status = data === undefined ? 'loading' : data.error !== undefined ? 'error' : all.length === 0 ? 'empty' : 'ready';

  return (
    <main className="targets" aria-label="Scrape targets">
      <div className="targets-head">
        <h1>Targets</h1>
        <span className="badge ok">{all.length - down} up</span>
        {down > 0 && <span className="badge critical">✖ {down} down</span>}
        <div className="toolbar-spacer" />
        <input
          className="input targets-filter"
          type="search"
          placeholder="Filter by URL, pool, label (az=us-east-1a), health or error…"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            updateUrlState({ filter: e.target.value });
          }}
          aria-label="Filter targets"
          data-testid="targets-filter"
        />
      </div>
      <section className="panel targets-body" data-testid="targets-table" data-state={status} aria-busy={pending}>
        {pending && <div className="progress-line" role="progressbar" aria-label="Loading targets" />}
        {data === undefined ? (
          <div className="skeleton" style={{ height: 200 }} />
        ) : data.error !== undefined ? (
          <div className="panel-state error" role="alert">
            <span className="state-icon" aria-hidden="true">
              ✖
            </span>
            <div>
              <div className="state-title">Could not load the targets</div>
              <div className="state-text mono">{data.error}</div>
            </div>
          </div>
        ) : all.length === 0 ? (
          <div className="panel-state">
            <span className="state-icon" aria-hidden="true">
              ∅
            </span>
            <div>
              <div className="state-title">No scrape targets</div>
              <div className="state-text">Start Infersight with a Prometheus-style config (`--config.file`) or run `infersight demo`.</div>
            </div>
          </div>
        ) : pools.length === 0 ? (
          <div className="panel-state">
            <span className="state-icon" aria-hidden="true">
              ∅
            </span>
            <div>
              <div className="state-title">No target matches “{state.filter}”</div>
            </div>
          </div>
        ) : (
          pools.map((p) => <Pool key={p.pool} pool={p} nowMs={data.atMs} />)
        )}
      </section>
    </main>
  );
}

function Pool({ pool, nowMs }: { pool: TargetPool; nowMs: number }): ReactNode {
  const [limit, setLimit] = useState(PAGE);
  const [open, setOpen] = useState(true);
  const shown = pool.targets.slice(0, limit);
  return (
    <div className="pool" data-testid="target-pool" data-pool={pool.pool}>
      <button type="button" className="pool-head" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span className="caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="pool-name">{pool.pool}</span>
        <span className="badge ok">{pool.up} up</span>
        {pool.down > 0 && <span className="badge critical">✖ {pool.down} down</span>}
        {pool.unknown > 0 && <span className="badge">{pool.unknown} unknown</span>}
        {pool.targets.length < pool.total && (
          <span className="muted">
            {pool.targets.length} of {pool.total} shown
          </span>
        )}
      </button>
      {open && (
        <table className="data-table targets-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="th-static">Endpoint</span>
              </th>
              <th scope="col">
                <span className="th-static">State</span>
              </th>
              <th scope="col">
                <span className="th-static">Labels</span>
              </th>
              <th scope="col">
                <span className="th-static">Last scrape</span>
              </th>
              <th scope="col" className="numeric">
                <span className="th-static">Duration</span>
              </th>
              <th scope="col">
                <span className="th-static">Error</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.scrapeUrl + JSON.stringify(t.labels)} data-testid="target-row" data-health={t.health} className={t.health === 'down' ? 'down' : ''}>
                <td className="mono endpoint-cell">
                  <a href={t.scrapeUrl} target="_blank" rel="noreferrer">
                    {t.scrapeUrl}
                  </a>
                </td>
                <td>
                  <span className={`badge ${t.health === 'up' ? 'ok' : t.health === 'down' ? 'critical' : ''}`}>
                    {t.health === 'up' ? '✓' : t.health === 'down' ? '✖' : '?'} {t.health}
                  </span>
                </td>
                <td title={`Discovered labels:\n${Object.entries(t.discoveredLabels).map(([k, v]) => `${k}="${v}"`).join('\n')}`}>
                  <div className="labels-cell">
                    {Object.keys(t.labels)
                      .sort()
                      .map((k) => (
                        <span key={k} className="chip">
                          {k}=<b>{t.labels[k]}</b>
                        </span>
                      ))}
                  </div>
                </td>
                <td className="num" title={t.lastScrape}>
                  {t.lastScrape.startsWith('0001') ? 'never' : formatAgo(Date.parse(t.lastScrape), nowMs)}
                </td>
                <td className="numeric num">{formatSeconds(t.lastScrapeDuration)}</td>
                <td className="error-cell mono">{t.lastError}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && pool.targets.length > limit && (
        <button type="button" className="btn small ghost show-more" onClick={() => setLimit((l) => l + PAGE * 5)}>
          Show {Math.min(PAGE * 5, pool.targets.length - limit)} more of {pool.targets.length - limit}
        </button>
      )}
    </div>
  );
}
