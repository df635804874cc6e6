import type { Theme } from '@berth/core';
import { useEffect } from 'react';
import { usePersistedState } from './persisted-state.ts';

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** The persisted theme (spec 1 §9: default light), kept on <html data-theme> for the CSS variables. */
export function useTheme(): { theme: Theme; toggleTheme: () => void; setTheme: (theme: Theme) => void } {
  const [theme, setTheme] = usePersistedState('theme');
  useEffect(() => applyTheme(theme), [theme]);
  return { theme, toggleTheme: () => setTheme(theme === 'dark' ? 'light' : 'dark'), setTheme };
}
