import { scopeDenialMessage } from '@berth/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';

function appHal() {
  return appResourceFixture({
    id: '1',
    handle: 'shop',
    _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
  });
}

/** The `web` service of app 1 in environment 10, one 1 GB container. */
const serviceHal = () => serviceResourceFixture({ id: '5', command: 'npm start' });

/** A platform user whose role holds only `read` on environment 10. */
function readOnlyConsole(app: Record<string, unknown> | (() => Response) = appHal()) {
  signIn();
  mockServer({
    ...consoleRoutes({
      roles: [roleHal({ id: 'role-2', name: 'Readers', type: 'platform_user' })],
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [
        environmentHal({ id: '10', permissions: [{ id: 'p1', scope: 'read', roleId: 'role-2' }] }),
      ],
    }),
    'GET /api/apps/1': typeof app === 'function' ? app : () => json(200, app),
    'GET /api/apps/1/deployments': () => json(200, collection('deployments', [])),
    'GET /api/apps/1/services': () => json(200, collection('services', [serviceHal()])),
    'GET /api/services/5': () => json(200, serviceHal()),
    'GET /api/services/5/vhosts': () => json(200, collection('vhosts', [])),
    'GET /api/stacks/1': () => json(200, { ...stackHal({ id: '1' }), allow_m_instance_profile: true }),
    'GET /api/costs/org-1/services': () =>
      json(
        200,
        collection('costs', [
          { id: '5', _type: 'cost', resource_type: 'Service', est_cost: 292, _links: {} },
        ]),
      ),
    'GET /api/costs/org-1/apps': () =>
      json(
        200,
        collection('costs', [{ id: '1', _type: 'cost', resource_type: 'App', est_cost: 379.6, _links: {} }]),
      ),
  });
}

describe('app and service actions for a read-only user (spec 2 §6)', () => {
  it('shows Deploy, Restart, Deprovision and Scale disabled with the scope tooltip', async () => {
    readOnlyConsole();
    const { router } = renderApp('/apps/1');

    const deploy = await screen.findByRole('button', { name: 'Deploy' });
    expect(deploy).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(deploy);
    expect(deploy).toHaveAttribute('aria-expanded', 'false');
    expect(deploy).toHaveAccessibleDescription(
      deniedDescription('You do not have "deploy" permissions for this environment (id:10)', 'production'),
    );
    // Read scope is enough to see the Dependencies tab.
    expect(screen.getByRole('link', { name: 'Dependencies' })).toBeInTheDocument();

    await act(() => router.navigate('/apps/1/settings'));
    const deprovision = await screen.findByRole('button', { name: 'Deprovision App' });
    expect(deprovision).toHaveAttribute('aria-disabled', 'true');
    expect(deprovision).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('destroy', '10'), 'production'),
    );
    expect(screen.getByRole('button', { name: 'Restart App' })).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('observability', '10'), 'production'),
    );

    await act(() => router.navigate('/apps/1/services/5/scale'));
    const scale = await screen.findByRole('button', { name: 'Save Changes' });
    expect(scale).toHaveAttribute('aria-disabled', 'true');
    expect(scale).toHaveAccessibleDescription(
      deniedDescription(
        'You do not have "observability" permissions for this environment (id:10)',
        'production',
      ),
    );
    expect(screen.getByText('Zero-Overlap')).toBeInTheDocument();
  });
});

describe('app Deployments tab', () => {
  it('describes an app that was never deployed', async () => {
    readOnlyConsole();
    renderApp('/apps/1');
    const details = await screen.findByRole('region', { name: 'App details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(value('Git Ref')).toBe('Not used');
    expect(value('Commit Message')).toBe('Not Provided');
    expect(value('Docker Image')).toBe('Unknown');
    expect(value('Last Deployed')).toBe('Never');
    // Issue 20: the estimate by part, so the total can be explained.
    await waitFor(() =>
      expect(value('Est. Monthly Cost')).toBe('$379.60 (containers $292.00, endpoints and the rest $87.60)'),
    );
  });

  it('shows "Error: {message}" when the deployments fail to load, not the empty text', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({
        stacks: [stackHal({ id: '1', isDefault: true })],
        environments: [environmentHal({ id: '10' })],
      }),
      'GET /api/apps/1': () => json(200, appHal()),
      'GET /api/apps/1/deployments': () =>
        json(500, errorBody(500, 'internal_server_error', 'Deployments are unavailable')),
      'GET /api/apps/1/services': () => json(200, collection('services', [])),
    });
    renderApp('/apps/1/deployments');
    expect(await screen.findByText('Error: Deployments are unavailable')).toBeInTheDocument();
    expect(screen.queryByText('No deployments found')).not.toBeInTheDocument();
  });
});

describe('an app that is gone', () => {
  it('leaves its page for the list when the app it showed is deprovisioned', async () => {
    let gone = false;
    readOnlyConsole(() =>
      gone ? json(404, errorBody(404, 'not_found', 'App not found')) : json(200, appHal()),
    );
    const { router, queryClient } = renderApp('/apps/1');
    await screen.findByRole('region', { name: 'App details' });
    gone = true;
    const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
    await act(() => queryClient.refetchQueries({ queryKey: appKeys.detail('1') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps'));
    // The lists that still held it are fetched again: the Apps list opened next no longer shows it.
    expect(invalidated).toHaveBeenCalledWith({ queryKey: appKeys.all });
  });
});
