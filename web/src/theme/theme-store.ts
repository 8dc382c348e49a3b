/**
 * The active theme: the URL's `theme` when present, else the choice stored by the toggle
 * (localStorage `infersight.theme`), else the OS preference (`prefers-color-scheme`). The
 * theme is applied as `data-theme` on <html>; index.html sets it before the first paint. The
 * health states' colours (palette.ts, `HEALTH_COLORS`) are set with it as custom properties
 * (`--healthy`, `--starting`, ...), so the TypeScript table is their only source.
 */
import { useSyncExternalStore } from 'react';
import type { Theme } from '../state/url-state.js';
import { HEALTH_COLORS } from './palette.js';

const STORAGE_KEY = 'infersight.theme';
const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

function storedTheme(): Theme | undefined {
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    return v === 'dark' || v === 'light' ? v : undefined;
  } catch {
    return undefined;
  }
}

let urlTheme: Theme | undefined;
let current: Theme = typeof window === 'undefined' ? 'dark' : resolve();

function resolve(): Theme {
  return urlTheme ?? storedTheme() ?? systemTheme();
}

/** Sets `data-theme` and the health colours of `theme` on <html>. */
function setDocumentTheme(theme: Theme): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  for (const [state, colour] of Object.entries(HEALTH_COLORS[theme])) root.style.setProperty(`--${state}`, colour);
}

function apply(): void {
  const next = resolve();
  if (typeof document !== 'undefined') setDocumentTheme(next);
  if (next !== current) {
    current = next;
    for (const l of listeners) l();
  }
}

if (typeof window !== 'undefined') {
  window.matchMedia('(prefers-color-scheme: light)').addEventListener('change', apply);
  setDocumentTheme(current);
}

/** The URL's theme override (App passes it on every change). */
export function setUrlTheme(t: Theme | undefined): void {
  urlTheme = t;
  apply();
}

/** Stores the user's choice and applies it. */
export function chooseTheme(t: Theme): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, t);
  } catch {
    // Private mode: the choice lasts for the page's lifetime.
  }
  apply();
}

/** The active theme. */
export function useTheme(): Theme {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => 'dark',
  );
}

const varCache = new Map<string, string>();
let varCacheTheme: string | undefined;

/**
 * Reads a CSS custom property of the document (`--fg`), for canvas drawing. Cached per theme:
 * getComputedStyle forces a style recalculation, and twenty charts ask for seven colours each.
 */
export function cssVar(name: string): string {
  if (typeof document === 'undefined') return '';
  const theme = document.documentElement.dataset.theme ?? '';
  if (theme !== varCacheTheme) {
    varCache.clear();
    varCacheTheme = theme;
  }
  let v = varCache.get(name);
  if (v === undefined) {
    v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    varCache.set(name, v);
  }
  return v;
}
