/**
 * The UI's credentials (docs/security.md): when the server answers 401, the login prompt asks for
 * a user name and password (Basic) or a token (Bearer); the header is kept in sessionStorage for
 * the tab's life and sent with every API request. `authFetch` is the one fetch the UI uses.
 */
import { useSyncExternalStore } from 'react';

const KEY = 'infersight.authorization';
let required = false;
const listeners = new Set<() => void>();

function storage(): Storage | null {
  return typeof sessionStorage === 'undefined' ? null : sessionStorage;
}

function notify(): void {
  for (const l of listeners) l();
}

/** The `Authorization` header value for a user and password, or for a token when `user` is empty. */
export function authorizationFor(user: string, secret: string): string {
  if (user === '') return `Bearer ${secret}`;
  const bytes = new TextEncoder().encode(`${user}:${secret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** Stores the credentials the prompt was given and closes it. */
export function setAuthorization(header: string): void {
  storage()?.setItem(KEY, header);
  required = false;
  notify();
}

/** Whether the server asked for credentials the UI does not have (the prompt is open). */
export function useAuthRequired(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => required,
    () => false,
  );
}

/** `fetch` with the stored credentials; a 401 opens the login prompt (and still resolves with the 401). */
export async function authFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const auth = storage()?.getItem(KEY) ?? null;
  const headers = new Headers(init.headers);
  if (auth !== null && !headers.has('Authorization')) headers.set('Authorization', auth);
  const res = await fetch(input, { ...init, headers });
  if (res.status === 401 && !required) {
    storage()?.removeItem(KEY);
    required = true;
    notify();
  }
  return res;
}
