import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, organizationHal, userHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

/**
 * A signed-in user with no organization yet, and a server that creates "Difference Engines" (org-2): what
 * the console reads of it once selected, and the organizations list, with it once it is created.
 */
function serverCreatingAnOrganization() {
  signIn();
  const created = organizationHal({ id: 'org-2', name: 'Difference Engines' });
  let existing: ReturnType<typeof organizationHal>[] = [];
  return mockServer({
    ...consoleRoutes({ organizations: [created] }),
    'GET /auth/organizations': () => json(200, collection('organizations', existing)),
    'POST /auth/organizations': () => {
      existing = [created];
      return json(201, created);
    },
    'PUT /auth/users/user-1': () => json(200, userHal({ selectedOrganizationId: 'org-2' })),
  });
}

describe('create organization', () => {
  it('requires a name, creates the organization, selects it and opens its Home', async () => {
    const server = serverCreatingAnOrganization();
    const { router } = renderApp('/organizations/create');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/organizations')).toHaveLength(0);

    await user.type(screen.getByLabelText('Organization name'), 'Difference Engines');
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));

    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(server.callsTo('POST', '/auth/organizations')[0]?.body).toEqual({ name: 'Difference Engines' });
    expect(server.callsTo('PUT', '/auth/users/user-1')[0]?.body).toEqual({
      selected_organization_id: 'org-2',
    });
  });

  it('opens the new Home after the console has read the list without it (from the banner on /environments)', async () => {
    serverCreatingAnOrganization();
    const { router } = renderApp('/environments');
    expect(await screen.findByText('Select an organization', { exact: false })).toBeInTheDocument();
    await router.navigate('/organizations/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Organization name'), 'Difference Engines');
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));

    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it("shows the server's message", async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'POST /auth/organizations': () => json(422, errorBody(422, 'unprocessable_entity', 'Name is too long')),
    });
    renderApp('/organizations/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Organization name'), 'Engines');
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Name is too long');
  });
});

describe('choose organization', () => {
  it('lists organizations, badges SSO enforcement, lists re-login ones apart and selects one', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({
        user: userHal({ selectedOrganizationId: 'org-1' }),
        organizations: [
          organizationHal({ id: 'org-1', name: 'Analytical Engines' }),
          organizationHal({ id: 'org-2', name: 'Difference Engines', ssoEnforced: true }),
        ],
      }),
      'GET /auth/reauthenticate_organizations': () =>
        json(
          200,
          collection('organizations', [
            organizationHal({ id: 'org-3', name: 'Jacquard', ssoEnforced: true }),
          ]),
        ),
      'PUT /auth/users/user-1': () => json(200, userHal({ selectedOrganizationId: 'org-2' })),
    });
    const { router } = renderApp('/organizations/picker');

    const yours = await screen.findByRole('list', { name: 'Your organizations' });
    expect(yours).toHaveTextContent('Analytical Engines');
    expect(yours).toHaveTextContent('Difference EnginesSSO Enforced');
    expect(
      await screen.findByRole('list', { name: 'Organizations that require a new login' }),
    ).toHaveTextContent('Jacquard');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Select Difference Engines' }));
    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(server.callsTo('PUT', '/auth/users/user-1')[0]?.body).toEqual({
      selected_organization_id: 'org-2',
    });
  });
});
