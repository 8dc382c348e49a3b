/** The global bar: product name, page navigation, time range, refresh and theme. */
import type { MouseEvent, ReactNode } from 'react';
import { navigate, updateUrlState, useUrlState } from '../../state/url-store.js';
import { pathForPage, type Page } from '../../state/url-state.js';
import { PageProgress } from '../PageProgress/PageProgress.js';
import { RefreshPicker } from '../RefreshPicker/RefreshPicker.js';
import { ThemeToggle } from '../ThemeToggle/ThemeToggle.js';
import { TimeRangePicker } from '../TimeRangePicker/TimeRangePicker.js';
import './TopBar.css';

const PAGES: readonly [Page, string][] = [
  ['insights', 'Insights'],
  ['quality', 'Quality'],
  ['cost', 'Cost'],
  ['explore', 'Explore'],
  ['alerts', 'Alerts'],
  ['rules', 'Rules'],
  ['targets', 'Targets'],
];

/** The bar. */
export function TopBar(): ReactNode {
  const { page, state } = useUrlState();
  const go = (p: Page) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(p);
  };
  const search = typeof window === 'undefined' ? '' : window.location.search;
  // The filter box and the alert states belong to one page: another page starts without them.
  const searchFor = (p: Page): string => {
    if (p === page) return search;
    const q = new URLSearchParams(search);
    q.delete('filter');
    q.delete('state');
    const text = q.toString();
    return text === '' ? '' : `?${text}`;
  };
  const here = typeof window === 'undefined' ? '/' : window.location.pathname;
  return (
    <header className="topbar">
      <PageProgress />
      <a className="brand" href={pathForPage('insights', here) + search} onClick={go('insights')} aria-label="Infersight home">
        <svg width="22" height="24" viewBox="0 0 22 24" aria-hidden="true">
          <polygon points="11,1 21,6.5 21,17.5 11,23 1,17.5 1,6.5" fill="none" stroke="var(--accent)" strokeWidth="2" />
          <polygon points="11,7 16,9.8 16,15.2 11,18 6,15.2 6,9.8" fill="var(--accent)" />
        </svg>
        <span>Infersight</span>
      </a>
      <nav className="topnav" aria-label="Pages">
        {PAGES.map(([p, title]) => (
          <a key={p} href={pathForPage(p, here) + searchFor(p)} aria-current={page === p ? 'page' : undefined} onClick={go(p)} data-testid={`nav-${p}`}>
            {title}
          </a>
        ))}
      </nav>
      <div className="topbar-spacer" />
      {page !== 'targets' && page !== 'alerts' && page !== 'rules' && page !== 'diagnosis' && <TimeRangePicker range={state.range} onChange={(range) => updateUrlState({ range }, { push: true })} />}
      <RefreshPicker refreshMs={state.refreshMs} onChange={(refreshMs) => updateUrlState({ refreshMs })} />
      <ThemeToggle />
    </header>
  );
}
