import { impersonationMessages, type TokenResource } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { errorBody, HOST, jwt, tokenHal, userHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

const reloads = vi.hoisted(() => [] as string[]);
vi.mock('../../../features/impersonation/api/impersonation.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../features/impersonation/api/impersonation.ts')>()),
  reloadConsole: (path = '/') => reloads.push(path),
}));

beforeEach(() => {
  reloads.length = 0;
});

/** A token of user-2 (Grace) acted on by user-1 (Ada), as the server issues it for impersonation. */
function impersonationToken(scope: 'read' | 'manage'): TokenResource {
  const base = tokenHal({ id: 'tok-imp', userId: 'user-2', email: 'grace@example.com', scope });
  return {
    ...base,
    access_token: jwt({
      id: 'tok-imp',
      sub: `${HOST}/auth/users/user-2`,
      scope,
      exp: Math.floor(Date.now() / 1000) + 3600,
      email: 'grace@example.com',
      name: 'Grace Hopper',
      act: { sub: `${HOST}/auth/users/user-1`, email: 'ada@example.com', name: 'Ada Lovelace' },
    }),
    _links: { ...base._links, actor: { href: `${HOST}/auth/users/user-1` } },
  };
}

describe('/impersonate', () => {
  it('sends users who are not staff away', async () => {
    signIn();
    mockServer(consoleRoutes());
    const { router } = renderApp('/impersonate');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/impersonate'));
  });

  it('lets a superuser impersonate by email, with write access when ticked', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({ user: userHal({ superuser: true }) }),
      'POST /auth/tokens': [
        () => json(404, errorBody(404, 'not_found', 'User not found')),
        () => json(201, impersonationToken('manage')),
      ],
    });
    renderApp('/impersonate');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Impersonate' }, { timeout: 5000 }));
    expect(await screen.findByText(impersonationMessages.subjectRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Impersonate' }));
    expect(await screen.findByText('User not found')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByLabelText('Write access (scope manage)'));
    await user.click(screen.getByRole('button', { name: 'Impersonate' }));
    await waitFor(() => expect(reloads).toEqual(['/']));
    expect(server.callsTo('POST', '/auth/tokens')[1]?.body).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'berth:user:email',
      subject_token: 'grace@example.com',
      scope: 'manage',
    });
  });

  it('offers read-only impersonators no write access', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({ user: userHal({ readOnlyImpersonate: true }) }),
      'POST /auth/tokens': () => json(201, impersonationToken('read')),
    });
    renderApp('/impersonate');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email', {}, { timeout: 5000 }), 'grace@example.com');
    expect(screen.queryByLabelText('Write access (scope manage)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Impersonate' }));
    await waitFor(() => expect(reloads).toEqual(['/']));
    expect(server.callsTo('POST', '/auth/tokens')[0]?.body).toMatchObject({ scope: 'read' });
  });
});

describe('impersonation banner', () => {
  it('shows who is impersonated, read-only, and ends the impersonation', async () => {
    sessionStore.signIn(fromTokenResource(impersonationToken('read')));
    const server = mockServer({
      ...consoleRoutes({ user: userHal({ id: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' }) }),
      'DELETE /auth/tokens/tok-imp': () => noContent(),
    });
    renderApp('/environments');
    const user = userEvent.setup();
    expect(
      await screen.findByText(
        impersonationMessages.banner('Grace Hopper', 'grace@example.com'),
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/Read-only: changes are refused/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop impersonating' }));
    await waitFor(() => expect(reloads).toEqual(['/impersonate']));
    expect(server.callsTo('DELETE', '/auth/tokens/tok-imp')).toHaveLength(1);
  });

  it('is not there for an ordinary session', async () => {
    signIn();
    mockServer(consoleRoutes());
    renderApp('/environments');
    await screen.findByRole('heading', { name: /Environments/ }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Stop impersonating' })).not.toBeInTheDocument();
  });
});
