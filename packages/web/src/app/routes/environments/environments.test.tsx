import { handleMessages } from '@berth/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import {
  collection,
  costHal,
  environmentHal,
  errorBody,
  organizationHal,
  roleHal,
  stackHal,
  userHal,
} from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

/** A shared stack and one dedicated to org-1, as the list tests place their environments on. */
const sharedAndDedicatedStacks = () => [
  stackHal({ id: '1', name: 'shared-us-west-1' }),
  stackHal({ id: '2', name: 'engines-prod', organizationId: 'org-1' }),
];

describe('environments list', () => {
  it("shows the empty state with a way to create the selected organization's first environment", async () => {
    signIn();
    mockServer(
      consoleRoutes({ environments: [environmentHal({ organizationId: 'org-other', handle: 'not-ours' })] }),
    );
    renderApp('/environments');
    // The first render compiles the lazy route modules; under a loaded machine that can pass 1 s.
    expect(
      await screen.findByRole('heading', { name: 'No environments exist' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Environment' })).toHaveAttribute(
      'href',
      '/create/environment',
    );
    expect(screen.queryByText('not-ours')).not.toBeInTheDocument();
  });

  it('lists the environments with their stack, counts and cost, a total, and searches by handle or id', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({
        stacks: sharedAndDedicatedStacks(),
        environments: [
          environmentHal({ id: '10', handle: 'production', stackId: '2', apps: 3, databases: 2 }),
          environmentHal({ id: '11', handle: 'staging', stackId: '1', apps: 1, databases: 0 }),
        ],
      }),
      'GET /api/costs/org-1/accounts': () =>
        json(200, collection('costs', [costHal('10', 'Account', 1234.5), costHal('11', 'Account', 58.4)])),
    });
    const { router } = renderApp('/environments');
    const table = await screen.findByRole('table', { name: 'Environments' });
    const rows = within(table).getAllByRole('row');
    expect(
      rows.map((row) =>
        within(row)
          .queryAllByRole('columnheader')
          .map((cell) => cell.textContent),
      )[0],
    ).toEqual(['Handle', 'ID', 'Stack', 'Apps', 'Databases', 'Est. Monthly Cost']);
    expect(await within(table).findByText('$1,234.50')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('production10engines-prod32$1,234.50');
    expect(rows[2]).toHaveTextContent('staging11shared-us-west-110$58.40');
    expect(screen.getByRole('status', { name: 'Total Est. Monthly Cost' })).toHaveTextContent('$1,292.90');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'production' })).toHaveAttribute(
      'href',
      '/environments/10',
    );

    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search environments' }), 'STAG');
    // spec 3 §2: the search is debounced and kept in the query string.
    expect(await screen.findByText('1 result')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?search=STAG');
    expect(within(table).queryByText('production')).not.toBeInTheDocument();
    expect(within(table).getByText('staging')).toBeInTheDocument();

    const search = screen.getByRole('searchbox', { name: 'Search environments' });
    await userEvent.setup().type(search, '-nothing-like-this');
    expect(await within(table).findByText('No resources found')).toBeInTheDocument();
  });

  it('filters by stack with ?stack_id', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({
        stacks: sharedAndDedicatedStacks(),
        environments: [
          environmentHal({ id: '10', handle: 'production', stackId: '2' }),
          environmentHal({ id: '11', handle: 'staging', stackId: '1' }),
        ],
      }),
      'GET /api/costs/org-1/accounts': () => json(200, collection('costs', [])),
    });
    renderApp('/environments?stack_id=2');
    const table = await screen.findByRole('table', { name: 'Environments' });
    expect(within(table).getByText('production')).toBeInTheDocument();
    expect(within(table).queryByText('staging')).not.toBeInTheDocument();
    expect(screen.getByText(/on stack engines-prod/)).toBeInTheDocument();
  });

  it('shows the load failure as "Error: {message}"', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /api/accounts': () => json(500, errorBody(500, 'internal_error', 'The database is unavailable')),
    });
    renderApp('/environments');
    expect(await screen.findByText('Error: The database is unavailable')).toBeInTheDocument();
  });

  it('asks for SSO login when the only organization enforces it and the server says this token may not use it', async () => {
    signIn();
    const server = mockServer(
      consoleRoutes({
        organizations: [organizationHal({ name: 'Jacquard', ssoEnforced: true, reauthRequired: true })],
      }),
    );
    renderApp('/environments');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('SSO Login Required');
    expect(banner).toHaveTextContent('Organization Jacquard requires SSO!');
    expect(within(banner).getByRole('link', { name: 'Log in with SSO' })).toHaveAttribute(
      'href',
      'http://berth.test/auth/organizations/org-1/saml/login?redirect_uri=http%3A%2F%2Fberth.test%2Fsso%2Ffailure',
    );
    // In place of the page: nothing of the organization is asked for (its resources answer 403).
    expect(screen.queryByRole('heading', { name: 'Environments' })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/auth/organizations/org-1/roles')).toHaveLength(0);
  });

  it('lets an exempt member (an owner, or one on the exception list) work in an organization enforcing SSO', async () => {
    signIn();
    mockServer(consoleRoutes({ organizations: [organizationHal({ name: 'Jacquard', ssoEnforced: true })] }));
    renderApp('/environments');
    expect(await screen.findByRole('heading', { name: 'Environments' })).toBeInTheDocument();
    expect(screen.queryByText('Organization Jacquard requires SSO!')).not.toBeInTheDocument();
  });

  it('selects the most recently updated organization when the user has none selected', async () => {
    signIn();
    mockServer(
      consoleRoutes({
        organizations: [
          organizationHal({ id: 'org-1', name: 'Older', updatedAt: '2025-01-01T00:00:00.000Z' }),
          organizationHal({ id: 'org-2', name: 'Newer', updatedAt: '2025-03-01T00:00:00.000Z' }),
        ],
        roles: [roleHal({ organizationId: 'org-1' }), roleHal({ id: 'role-2', organizationId: 'org-2' })],
      }),
    );
    renderApp('/environments');
    expect(await screen.findByRole('button', { name: 'Organization: Newer' })).toBeInTheDocument();
    expect(screen.getByText('Environments of Newer')).toBeInTheDocument();
  });

  it("follows the user's stored selection", async () => {
    signIn();
    mockServer(
      consoleRoutes({
        user: userHal({ selectedOrganizationId: 'org-1' }),
        organizations: [
          organizationHal({ id: 'org-1', name: 'Older', updatedAt: '2025-01-01T00:00:00.000Z' }),
          organizationHal({ id: 'org-2', name: 'Newer', updatedAt: '2025-03-01T00:00:00.000Z' }),
        ],
      }),
    );
    renderApp('/environments');
    expect(await screen.findByRole('button', { name: 'Organization: Older' })).toBeInTheDocument();
  });

  it('switches organization from the side menu (PUT /users/:id) and shows its environments', async () => {
    signIn();
    let selected = 'org-1';
    const organizations = [
      organizationHal({ id: 'org-1', name: 'Older', updatedAt: '2025-01-01T00:00:00.000Z' }),
      organizationHal({ id: 'org-2', name: 'Newer', updatedAt: '2025-03-01T00:00:00.000Z' }),
    ];
    const server = mockServer({
      ...consoleRoutes({
        user: userHal({ selectedOrganizationId: 'org-1' }),
        organizations,
        roles: [roleHal({ organizationId: 'org-1' }), roleHal({ id: 'role-2', organizationId: 'org-2' })],
        environments: [
          environmentHal({ id: '10', handle: 'older-prod', organizationId: 'org-1' }),
          environmentHal({ id: '20', handle: 'newer-prod', organizationId: 'org-2' }),
        ],
      }),
      // The server persists the selection, so the user reads back with the new one.
      'GET /auth/users/user-1': () => json(200, userHal({ selectedOrganizationId: selected })),
      'PUT /auth/users/user-1': (call) => {
        selected = (call.body as { selected_organization_id: string }).selected_organization_id;
        return json(200, userHal({ selectedOrganizationId: selected }));
      },
    });
    renderApp('/environments');
    const user = userEvent.setup();
    expect(await screen.findByText('older-prod')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Organization: Older' }));
    await user.click(screen.getByRole('menuitemradio', { name: 'Newer' }));

    expect(await screen.findByText('newer-prod')).toBeInTheDocument();
    expect(screen.queryByText('older-prod')).not.toBeInTheDocument();
    expect(screen.getByText('Environments of Newer')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/auth/users/user-1')[0]?.body).toEqual({
      selected_organization_id: 'org-2',
    });
  });

  it('asks a user without an organization to select one', async () => {
    signIn();
    mockServer(consoleRoutes({ organizations: [], roles: [] }));
    renderApp('/environments');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Select an organization');
    expect(within(banner).getByRole('link', { name: 'Choose Organization' })).toHaveAttribute(
      'href',
      '/organizations/picker',
    );
    expect(within(banner).getByRole('link', { name: 'Create Organization' })).toHaveAttribute(
      'href',
      '/organizations/create',
    );
  });

  it('enables Security & Compliance for a platform user with Full Visibility on an environment', async () => {
    signIn();
    mockServer(
      consoleRoutes({
        roles: [roleHal({ id: 'role-dev', type: 'platform_user', name: 'Developers' })],
        environments: [
          environmentHal({ permissions: [{ id: 'p1', scope: 'sensitive', roleId: 'role-dev' }] }),
        ],
      }),
    );
    renderApp('/environments');
    const entry = await screen.findByRole('link', { name: 'Security & Compliance' });
    // Full Visibility (sensitive implies read) opens the entry: a link to its page (issue 38).
    expect(entry).not.toHaveAttribute('aria-disabled');
    expect(entry).toHaveAttribute('href', '/security-compliance');
  });

  it('keeps Security & Compliance disabled for a platform user with only basic access', async () => {
    signIn();
    mockServer(
      consoleRoutes({
        roles: [roleHal({ id: 'role-dev', type: 'platform_user', name: 'Developers' })],
        environments: [environmentHal({ permissions: [{ id: 'p1', scope: 'deploy', roleId: 'role-dev' }] })],
      }),
    );
    renderApp('/environments');
    const entry = await screen.findByRole('link', { name: 'Security & Compliance' });
    expect(entry).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('create environment', () => {
  it('validates the handle with core, shows server messages, then creates on the chosen stack', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({
        stacks: [
          stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }),
          stackHal({ id: '2', name: 'engines-prod', organizationId: 'org-1' }),
          stackHal({ id: '3', name: 'someone-elses', organizationId: 'org-9' }),
        ],
      }),
      'POST /api/accounts': [
        () => json(422, errorBody(422, 'unprocessable_entity', 'Handle has already been taken')),
        () => json(201, environmentHal({ id: '12', handle: 'production', stackId: '2' })),
      ],
    });
    const { router } = renderApp('/create/environment?stack_id=2');
    const user = userEvent.setup();

    const handle = await screen.findByLabelText('Handle');
    const stack = screen.getByLabelText('Stack');
    expect(stack).toHaveValue('2');
    expect(within(stack).queryByRole('option', { name: /someone-elses/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Environment' }));
    expect(await screen.findByText('Handle must not be empty')).toBeInTheDocument();
    await user.type(handle, 'Production!');
    await user.click(screen.getByRole('button', { name: 'Create Environment' }));
    expect(await screen.findByText(handleMessages.pattern)).toBeInTheDocument();

    await user.clear(handle);
    await user.type(handle, 'production');
    await user.click(screen.getByRole('button', { name: 'Create Environment' }));
    expect(await screen.findByText('Handle has already been taken')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Environment' }));
    // spec 3 create flows: the new environment's first app is named next.
    expect(await screen.findByRole('heading', { name: 'Name your App' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create/app');
    expect(router.state.location.search).toBe('?environment_id=12');
    expect(server.callsTo('POST', '/api/accounts')[1]?.body).toEqual({
      handle: 'production',
      organization_id: 'org-1',
      type: 'production',
      onboarding_status: 'initiated',
      stack_id: '2',
    });
  });

  it('creates a development environment on the default shared stack', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({
        stacks: [
          stackHal({ id: '5', name: 'shared-eu' }),
          stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }),
        ],
      }),
      'POST /api/accounts': () => json(201, environmentHal({ id: '12', handle: 'staging' })),
    });
    renderApp('/create/environment');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Handle'), 'staging');
    expect(screen.getByLabelText('Stack')).toHaveValue('1');
    expect(screen.getByRole('link', { name: 'Request a dedicated stack' })).toHaveAttribute(
      'href',
      '/create/stack',
    );
    await user.click(screen.getByRole('button', { name: 'Create Environment' }));
    await screen.findByRole('heading', { name: 'Name your App' });
    expect(server.callsTo('POST', '/api/accounts')[0]?.body).toMatchObject({
      type: 'development',
      stack_id: '1',
    });
  });
});

describe('Create Environment for members who are not owners (spec 1 §6)', () => {
  const OWNER_ONLY = 'You do not have a valid role type (platform_owner, owner) to access this resource.';
  const developer = () =>
    consoleRoutes({
      roles: [roleHal({ id: 'role-dev', type: 'platform_user', name: 'Developers' })],
      environments: [environmentHal({ permissions: [{ id: 'p1', scope: 'deploy', roleId: 'role-dev' }] })],
    });

  it('is disabled up front with the owner-only tooltip on the list', async () => {
    signIn();
    mockServer(developer());
    renderApp('/environments');
    const button = await screen.findByRole('button', { name: 'Create Environment' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(deniedDescription(OWNER_ONLY));
    expect(screen.queryByRole('link', { name: 'Create Environment' })).not.toBeInTheDocument();
  });

  it('cannot be submitted from Name your Environment, so nothing fails after submit', async () => {
    signIn();
    const server = mockServer(developer());
    renderApp('/create/environment');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Handle'), 'staging');
    const submit = screen.getByRole('button', { name: 'Create Environment' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription(deniedDescription(OWNER_ONLY));
    await user.click(submit);
    expect(server.callsTo('POST', '/api/accounts')).toHaveLength(0);
    // Nor does it lead to a dedicated stack request they could not send (issue 20).
    expect(screen.queryByRole('link', { name: 'Request a dedicated stack' })).not.toBeInTheDocument();
  });
});
