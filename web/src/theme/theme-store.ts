/**
 * The active theme: the URL's `theme` when present, else the choice stored by the toggle
 * (localStorage `infersight.theme`), else the OS preference (`prefers-color-scheme`). The
 * theme is applied as `data-theme` on <html>; index.html sets it before the first paint.
 */
import { useSyncExternalStore } from 'react';
import type { Theme } from '../state/url-state.js';

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

function apply(): void {
  const next = resolve();
  if (typeof document !== 'undefined') document.documentElement.dataset.theme = next;
  if (next !== current) {
    current = next;
    for (const l of listeners) l();
  }
}

if (typeof window !== 'undefined') {
  window.matchMedia('(prefers-color-scheme: light)').addEventListener('change', apply);
  document.documentElement.dataset.theme = current;
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
