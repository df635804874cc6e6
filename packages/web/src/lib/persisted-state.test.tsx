import { PERSISTED_KEYS } from '@berth/core';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { persistedKeys, readPersisted, removePersisted, writePersisted } from './persisted-state.ts';
import { useTheme } from './theme.ts';

describe('persisted client state (spec 1 §3)', () => {
  it('uses exactly the spec keys', () => {
    expect([...persistedKeys]).toEqual([
      'theme',
      'nav',
      'redirectPath',
      'feedback',
      'resourceStats',
      'notices',
    ]);
    expect(persistedKeys).toEqual(PERSISTED_KEYS);
  });

  it('stores every key under its own name in localStorage', () => {
    writePersisted('theme', 'dark');
    writePersisted('nav', { collapsed: true });
    writePersisted('redirectPath', '/environments?search=prod');
    writePersisted('feedback', { preDeploySurveyAnswered: true, freeformFeedbackGiven: false });
    writePersisted('resourceStats', { 'app-42': { count: 3, lastAccessed: '2025-01-15T10:00:00.000Z' } });
    writePersisted('notices', { 'shared-endpoints': '2025-01-15T10:00:00.000Z' });

    expect(Object.keys(window.localStorage).sort()).toEqual([...PERSISTED_KEYS].sort());
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(window.localStorage.getItem('redirectPath')).toBe('/environments?search=prod');
    expect(JSON.parse(window.localStorage.getItem('nav') ?? '')).toEqual({ collapsed: true });
    expect(readPersisted('resourceStats')).toEqual({
      'app-42': { count: 3, lastAccessed: '2025-01-15T10:00:00.000Z' },
    });
  });

  it('falls back to defaults (theme light) for missing or unreadable values', () => {
    expect(readPersisted('theme')).toBe('light');
    expect(readPersisted('nav')).toEqual({ collapsed: false });
    expect(readPersisted('redirectPath')).toBeNull();
    window.localStorage.setItem('theme', 'purple');
    window.localStorage.setItem('nav', '{not json');
    window.localStorage.setItem('redirectPath', 'https://evil.example');
    expect(readPersisted('theme')).toBe('light');
    expect(readPersisted('nav')).toEqual({ collapsed: false });
    expect(readPersisted('redirectPath')).toBeNull();
  });

  it('removes a key', () => {
    writePersisted('redirectPath', '/environments');
    removePersisted('redirectPath');
    expect(window.localStorage.getItem('redirectPath')).toBeNull();
  });

  it('toggles the theme, persists it under "theme" and applies it to the document', () => {
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');

    act(() => result.current.toggleTheme());

    expect(result.current.theme).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
