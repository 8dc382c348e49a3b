/**
 * The login prompt: shown when an API request answered 401 (the server has a web configuration
 * with users or tokens). A user name and password are sent as Basic credentials; a token alone
 * (no user name) as a Bearer token. After signing in the page reloads, so every panel asks again.
 */
import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { authorizationFor, setAuthorization, useAuthRequired } from '../../api/auth.js';

/** The prompt; renders nothing while no credentials are needed. */
export function LoginPrompt(): ReactNode {
  const open = useAuthRequired();
  const [user, setUser] = useState('');
  const [secret, setSecret] = useState('');
  if (!open) return null;
  const submit = (e: SyntheticEvent): void => {
    e.preventDefault();
    if (secret === '') return;
    setAuthorization(authorizationFor(user.trim(), secret));
    window.location.reload();
  };
  return (
    <div className="login-backdrop" role="dialog" aria-modal="true" aria-labelledby="login-title" data-testid="login-prompt">
      <form className="login-card" onSubmit={submit}>
        <h2 id="login-title">Sign in to Infersight</h2>
        <p>This server needs credentials. Enter a user name and password, or leave the user name empty and paste a token.</p>
        <label>
          User name
          <input name="username" autoComplete="username" value={user} onChange={(e) => setUser(e.target.value)} data-testid="login-user" />
        </label>
        <label>
          Password or token
          <input name="password" type="password" autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} data-testid="login-secret" required />
        </label>
        <button type="submit" className="btn" data-testid="login-submit">
          Sign in
        </button>
      </form>
    </div>
  );
}
