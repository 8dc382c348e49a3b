/**
 * The readiness hook browser tests and the UI benchmark read: `window.__infersight`.
 *
 * - `pendingQueries`: queries started and not yet rendered (a panel releases its queries once
 *   the data is committed to the screen, not when the HTTP answer arrives); an interaction in
 *   progress counts as one until React has rendered it, so the count never dips to 0 between a
 *   click and the queries the click starts.
 * - `lastRenderMs`: ms from the last interaction (any URL-state change: a hex click, a toggle, a
 *   variable) to the moment every panel had rendered its data; for the first load, ms since
 *   navigation start.
 * - `renders`: how many such render cycles completed.
 *
 * Wait for readiness with `pendingQueries === 0 && renders > n`.
 */

/** The shape of `window.__infersight`. */
export interface ReadinessHook {
  pendingQueries: number;
  lastRenderMs: number;
  renders: number;
}

declare global {
  interface Window {
    __infersight?: ReadinessHook;
  }
}

const hook: ReadinessHook = { pendingQueries: 1, lastRenderMs: 0, renders: 0 };
const listeners = new Set<() => void>();
/** Queries started since the page was last idle (progress: done / started). */
let startedSinceIdle = 1;

let notifyQueued = false;

/** Tells the progress bar, at most once per frame (a burst of 60 queries is one re-render, not 120). */
function notify(): void {
  if (notifyQueued || listeners.size === 0) return;
  notifyQueued = true;
  const run = (): void => {
    notifyQueued = false;
    for (const l of listeners) l();
  };
  if (typeof requestAnimationFrame === 'undefined') queueMicrotask(run);
  else requestAnimationFrame(run);
}
// The page's first load counts as an interaction that began at navigation start (time 0).
let interactionStart: number | undefined = 0;
let interactionOpen = true;

if (typeof window !== 'undefined') window.__infersight = hook;

function now(): number {
  return typeof performance === 'undefined' ? Date.now() : performance.now();
}

function maybeFinish(): void {
  notify();
  if (hook.pendingQueries > 0) return;
  startedSinceIdle = 0;
  hook.pendingQueries = 0;
  if (interactionStart !== undefined) {
    hook.lastRenderMs = Math.round((now() - interactionStart) * 10) / 10;
    interactionStart = undefined;
  }
  hook.renders++;
}

/** Marks the start of an interaction; `settleInteraction` (after React's commit) closes it. */
export function beginInteraction(): void {
  interactionStart = now();
  if (!interactionOpen) {
    interactionOpen = true;
    hook.pendingQueries++;
    startedSinceIdle++;
  }
}

/** Called by the app after it committed the render of a state change: the interaction's own count is released. */
export function settleInteraction(): void {
  if (!interactionOpen) return;
  interactionOpen = false;
  hook.pendingQueries--;
  maybeFinish();
}

/** `n` queries started. */
export function queriesStarted(n: number): void {
  if (n <= 0) return;
  hook.pendingQueries += n;
  startedSinceIdle += n;
  notify();
}

/** `n` queries are rendered (or were abandoned). */
export function queriesRendered(n: number): void {
  if (n <= 0) return;
  hook.pendingQueries -= n;
  maybeFinish();
}

/** The hook object (tests read it directly). */
export function readinessHook(): Readonly<ReadinessHook> {
  return hook;
}

/** Subscribes to changes of the pending count (the page progress bar). */
export function subscribeReadiness(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Progress of the current burst of queries: [pending, started]. */
export function readinessProgress(): readonly [number, number] {
  return [hook.pendingQueries, startedSinceIdle];
}
