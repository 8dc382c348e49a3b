/**
 * The URL as the app's store: components read `UrlState` with `useUrlState()` and change it with
 * `updateUrlState(patch)`, which writes the query string through the History API (replace by
 * default, push for navigation) and notifies subscribers. Back/forward (`popstate`) re-reads it.
 */
import { useSyncExternalStore } from 'react';
import { beginInteraction } from '../app/readiness.js';
import { decodeUrlState, encodeUrlState, pageFromPath, pathForPage, type Page, type UrlState } from './url-state.js';

interface Snapshot {
  readonly page: Page;
  readonly state: UrlState;
}

const listeners = new Set<() => void>();
let snapshot: Snapshot = read();

function read(): Snapshot {
  if (typeof window === 'undefined') return { page: 'insights', state: decodeUrlState('') };
  return { page: pageFromPath(window.location.pathname), state: decodeUrlState(window.location.search) };
}

function emit(): void {
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    snapshot = read();
    beginInteraction();
    emit();
  });
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The current page and URL state; re-renders on every change. */
export function useUrlState(): Snapshot {
  return useSyncExternalStore(subscribe, () => snapshot, () => snapshot);
}

/** The current snapshot, outside React (event handlers that must read the latest state). */
export function currentUrlState(): Snapshot {
  return snapshot;
}

/**
 * Applies `patch` (a partial state, or a function of the current state) and writes the URL.
 * `push` adds a history entry (use it for deliberate navigation such as a hex-grid filter, so
 * Back undoes it); otherwise the entry is replaced.
 */
export function updateUrlState(patch: Partial<UrlState> | ((s: UrlState) => Partial<UrlState>), opts: { push?: boolean; page?: Page } = {}): void {
  const prev = snapshot;
  const delta = typeof patch === 'function' ? patch(prev.state) : patch;
  const state: UrlState = { ...prev.state, ...delta };
  const page = opts.page ?? prev.page;
  const query = encodeUrlState(state);
  const path = pathForPage(page, window.location.pathname);
  const url = `${path}${query === '' ? '' : `?${query}`}`;
  if (url !== `${window.location.pathname}${window.location.search}`) {
    if (opts.push === true || page !== prev.page) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }
  snapshot = { page, state };
  beginInteraction();
  emit();
}

/** Switches to `page`, keeping the time range, refresh, variables and theme. */
export function navigate(page: Page): void {
  // The filter box and the alert states belong to one page: another page starts without them.
  updateUrlState(page === snapshot.page ? {} : { filter: '', alertStates: [] }, { page, push: true });
}
