/**
 * The application shell: the top bar and the page of the URL's path (`/` Insights, `/explore`,
 * `/alerts`, `/rules`, `/targets`, `/diagnosis`, `/cost`, `/quality`), routed with the History API. Explore's editor is a separate chunk, loaded on first
 * visit, so Insights starts without it.
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { SpeedBanner } from '../components/SpeedBanner/SpeedBanner.js';
import { LoginPrompt } from '../components/LoginPrompt/LoginPrompt.js';
import { TopBar } from '../components/TopBar/TopBar.js';
import { AlertsPage } from '../pages/Alerts/Alerts.js';
import { CostPage } from '../pages/Cost/Cost.js';
import { DiagnosisPage } from '../pages/Diagnosis/Diagnosis.js';
import { InsightsPage } from '../pages/Insights/Insights.js';
import { QualityPage } from '../pages/Quality/Quality.js';
import { RulesPage } from '../pages/Rules/Rules.js';
import { TargetsPage } from '../pages/Targets/Targets.js';
import { useAutoRefresh } from '../state/refresh.js';
import { useUrlState } from '../state/url-store.js';
import type { Page } from '../state/url-state.js';
import { setUrlTheme } from '../theme/theme-store.js';
import { queriesRendered, queriesStarted, settleInteraction } from './readiness.js';

/** Counts as one pending query while mounted: a lazily loaded page is not ready before it renders. */
function PendingWhileMounted(): ReactNode {
  useEffect(() => {
    queriesStarted(1);
    return () => queriesRendered(1);
  }, []);
  return <div className="page-loading skeleton" aria-label="Loading" />;
}

const TITLES: Readonly<Record<Page, string>> = { insights: 'Insights', cost: 'Cost', explore: 'Explore', alerts: 'Alerts', rules: 'Rules', targets: 'Targets', diagnosis: 'Diagnosis', quality: 'Quality' };

const ExplorePage = lazy(() => import('../pages/Explore/Explore.js').then((m) => ({ default: m.ExplorePage })));

/** The app. */
export function App(): ReactNode {
  const snap = useUrlState();
  const { page, state } = snap;
  useAutoRefresh(state.refreshMs);
  useEffect(() => setUrlTheme(state.theme), [state.theme]);
  // Every URL change is an interaction; its own readiness count is released once React has
  // committed it (the panels' effects, which start their queries, ran just before this one).
  useEffect(() => settleInteraction(), [snap]);
  useEffect(() => {
    document.title = `${TITLES[page]} · Infersight`;
  }, [page]);
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <TopBar />
      <SpeedBanner />
      <LoginPrompt />
      <div id="content">
        {page === 'insights' && <InsightsPage state={state} />}
        {page === 'cost' && <CostPage state={state} />}
        {page === 'explore' && (
          <Suspense fallback={<PendingWhileMounted />}>
            <ExplorePage state={state} />
          </Suspense>
        )}
        {page === 'alerts' && <AlertsPage state={state} />}
        {page === 'rules' && <RulesPage state={state} />}
        {page === 'targets' && <TargetsPage state={state} />}
        {page === 'diagnosis' && <DiagnosisPage state={state} />}
        {page === 'quality' && <QualityPage state={state} />}
      </div>
    </>
  );
}
