import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { writePersisted } from '../../../lib/persisted-state.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

describe('logout', () => {
  it('deletes the access and elevated tokens, clears the store and the visits, and shows login', async () => {
    signIn({ id: 'tok-1' });
    sessionStore.setElevatedToken(
      fromTokenResource(tokenHal({ id: 'tok-2', scope: 'elevated', lifetime: 1800 })),
    );
    writePersisted('theme', 'dark');
    writePersisted('resourceStats', { 'app-7': { count: 3, lastAccessed: '2026-11-29T10:00:00Z' } });
    const server = mockServer({
      'DELETE /auth/tokens/tok-1': () => noContent(),
      'DELETE /auth/tokens/tok-2': () => noContent(),
    });
    const { router } = renderApp('/logout');
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(server.calls.map((call) => `${call.method} ${call.path}`).sort()).toEqual([
      'DELETE /auth/tokens/tok-1',
      'DELETE /auth/tokens/tok-2',
    ]);
    expect(sessionStore.getState()).toMatchObject({
      phase: 'anonymous',
      accessToken: null,
      elevatedToken: null,
    });
    expect(window.localStorage.getItem('theme')).toBe('dark');
    // The visits (Recently Viewed, Most Visited) are not left for the next person on this browser.
    expect(JSON.parse(window.localStorage.getItem('resourceStats') ?? '{}')).toEqual({});
  });
});
