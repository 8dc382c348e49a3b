/** Switches between the dark and the light theme; the choice is stored (see theme-store.ts). */
import type { ReactNode } from 'react';
import { currentUrlState, updateUrlState } from '../../state/url-store.js';
import { chooseTheme, useTheme } from '../../theme/theme-store.js';

/** The toggle. */
export function ThemeToggle(): ReactNode {
  const theme = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="btn"
      data-testid="theme-toggle"
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      onClick={() => {
        chooseTheme(next);
        // An explicit theme in the URL would win over the stored choice: drop it.
        if (currentUrlState().state.theme !== undefined) updateUrlState({ theme: undefined });
      }}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
