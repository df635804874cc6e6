import { permissionMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer, type RecordedCall } from '../../../../test/fetch-mock.ts';
import {
  collection,
  costHal,
  errorBody,
  organizationHal,
  roleHal,
  stackHal,
} from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { memberHal } from '../../../../test/team-fixtures.ts';
import { clearToasts } from '../../../components/ui/toast.tsx';

const OWNERS = roleHal({ id: 'role-1', name: 'Owners', type: 'owner' });
const DEPLOYERS = roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' });
const ADA = memberHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' });
const DEDICATED = stackHal({ id: '7', name: 'engines-dedicated', organizationId: 'org-1' });

/** The organization as the server holds it: PATCH changes it and the next GET reads it back. */
function contactsServer({
  callerRoles = [OWNERS],
  stacks = [stackHal({ isDefault: true })],
  stackCosts = [],
  patch,
}: {
  callerRoles?: ReturnType<typeof roleHal>[];
  stacks?: ReturnType<typeof stackHal>[];
  stackCosts?: ReturnType<typeof costHal>[];
  patch?: (call: RecordedCall) => Response;
} = {}) {
  signIn();
  let organization: Record<string, unknown> = organizationHal();
  const routes = consoleRoutes({ roles: callerRoles, stacks });
  return mockServer({
    ...routes,
    'GET /auth/organizations': () => json(200, collection('organizations', [organization])),
    'GET /auth/organizations/org-1/roles': () => json(200, collection('roles', [OWNERS, DEPLOYERS])),
    'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA])),
    'GET /auth/organizations/org-1/roles/memberships': () =>
      json(
        200,
        membershipsByRole([membershipHal({ id: 'm1', userId: 'user-1', roleId: callerRoles[0]?.id ?? '' })]),
      ),
    'GET /api/costs/org-1/stacks': () => json(200, collection('costs', stackCosts)),
    'PATCH /auth/organizations/org-1':
      patch ??
      ((call) => {
        organization = { ...organization, ...(call.body as Record<string, unknown>) };
        return json(200, organization);
      }),
  });
}

const form = () => screen.findByRole('form', { name: 'Organization Settings' });
const save = () => screen.getByRole('button', { name: 'Save Changes' });

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('organization settings (spec 1 §2 /settings/team/contacts)', () => {
  it('is listed in the Team Settings menu and shows the organization contacts with the states list', async () => {
    contactsServer();
    renderApp('/settings/team/contacts');
    const fields = within(await form());
    expect(fields.getByRole('textbox', { name: 'Name' })).toHaveValue('Analytical Engines');
    const state = fields.getByRole('combobox', { name: 'State' });
    expect(within(state).getByRole('option', { name: 'N/A' })).toBeInTheDocument();
    expect(within(state).getByRole('option', { name: 'Puerto Rico' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Organization Settings' })).toHaveAttribute(
      'href',
      '/settings/team/contacts',
    );
  });

  it("shows core's messages for a missing name and bad alert emails, and sends nothing", async () => {
    const server = contactsServer();
    renderApp('/settings/team/contacts');
    const fields = within(await form());
    const user = userEvent.setup();
    await user.clear(fields.getByRole('textbox', { name: 'Name' }));
    await user.type(fields.getByRole('textbox', { name: 'Security Alert Email' }), 'not-an-email');
    await user.type(fields.getByRole('textbox', { name: 'Ops Alert Email' }), 'ops@');
    await user.click(save());
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    expect(screen.getAllByText('Must provide valid email')).toHaveLength(2);
    expect(fields.getByRole('textbox', { name: 'Security Alert Email' })).toHaveAccessibleDescription(
      deniedDescription('Must provide valid email'),
    );
    expect(server.callsTo('PATCH', '/auth/organizations/org-1')).toHaveLength(0);
  });

  it('enables Save only when something changed, then saves, toasts and reads the organization again', async () => {
    const server = contactsServer();
    renderApp('/settings/team/contacts');
    const fields = within(await form());
    const user = userEvent.setup();
    expect(save()).toBeDisabled();

    const name = fields.getByRole('textbox', { name: 'Name' });
    await user.type(name, 'x');
    expect(save()).toBeEnabled();
    await user.type(name, '{Backspace}');
    expect(save()).toBeDisabled();

    await user.clear(name);
    await user.type(name, 'Difference Engines');
    await user.selectOptions(fields.getByRole('combobox', { name: 'State' }), 'N/A');
    await user.type(fields.getByRole('textbox', { name: 'Security Alert Email' }), 'security@example.com');
    const reads = server.callsTo('GET', '/auth/organizations').length;
    await user.click(save());

    expect(await screen.findByText('Saved changes successfully!')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/organizations/org-1')[0]?.body).toEqual({
      name: 'Difference Engines',
      address: '',
      city: '',
      state: 'N/A',
      zip: '',
      primary_phone: '',
      emergency_phone: '',
      security_alert_email: 'security@example.com',
      ops_alert_email: '',
    });
    await waitFor(() => expect(server.callsTo('GET', '/auth/organizations').length).toBeGreaterThan(reads));
    expect(save()).toBeDisabled();
    expect(fields.getByRole('textbox', { name: 'Name' })).toHaveValue('Difference Engines');
  });

  it("shows the server's message when it refuses", async () => {
    contactsServer({
      patch: () => json(422, errorBody(422, 'unprocessable_entity', 'Must provide valid email')),
    });
    renderApp('/settings/team/contacts');
    const fields = within(await form());
    const user = userEvent.setup();
    await user.type(fields.getByRole('textbox', { name: 'City' }), 'London');
    await user.click(save());
    expect(await screen.findByText('Must provide valid email')).toBeInTheDocument();
    expect(screen.queryByText('Saved changes successfully!')).not.toBeInTheDocument();
  });

  it('is read-only to anyone but an Account Owner (spec 1 §6), with the owner-only reason', async () => {
    contactsServer({ callerRoles: [DEPLOYERS] });
    renderApp('/settings/team/contacts');
    const fields = within(await form());
    expect(fields.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(fields.getByRole('combobox', { name: 'State' })).toBeDisabled();
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    expect(save()).toHaveAccessibleDescription(deniedDescription(permissionMessages.ownerOnly));
    const request = screen.getByRole('button', { name: 'Request Account Deletion' });
    expect(request).toHaveAttribute('aria-disabled', 'true');
    expect(request).toHaveAccessibleDescription(deniedDescription(permissionMessages.ownerOnly));
    expect(screen.getByRole('textbox', { name: 'Organization name' })).toBeDisabled();
  });
});

describe('Delete Account (spec 1 §4)', () => {
  const deletion = () => screen.findByRole('region', { name: 'Delete Account' });

  it('stays disabled until the typed name matches, then shows the request to support', async () => {
    contactsServer({
      stacks: [stackHal({ isDefault: true }), DEDICATED],
      stackCosts: [costHal('7', 'Stack', 0)],
    });
    renderApp('/settings/team/contacts');
    const section = within(await deletion());
    const user = userEvent.setup();
    const button = section.getByRole('button', { name: 'Request Account Deletion' });
    const field = section.getByRole('textbox', { name: 'Organization name' });
    await waitFor(() => expect(field).toBeEnabled());
    expect(button).toBeDisabled();
    await user.type(field, 'analytical engines');
    expect(button).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'Analytical Engines');
    expect(button).toBeEnabled();
    await user.click(button);

    const request = await screen.findByRole('region', { name: 'Account deletion request' });
    expect(within(request).getByText('Account deletion request: Analytical Engines')).toBeInTheDocument();
    expect(within(request).getByRole('link', { name: 'Confirm' }).getAttribute('href')).toMatch(
      /^\/support\?subject=Account\+deletion\+request/,
    );
    await user.click(within(request).getByRole('button', { name: 'Cancel' }));
    expect(await deletion()).toBeInTheDocument();
  });

  it('stays disabled while a stack of the organization has billable cost, naming it', async () => {
    contactsServer({
      stacks: [stackHal({ isDefault: true }), DEDICATED],
      stackCosts: [costHal('7', 'Stack', 499)],
    });
    renderApp('/settings/team/contacts');
    const section = within(await deletion());
    expect(await section.findByText(/engines-dedicated/)).toBeInTheDocument();
    expect(section.getByRole('textbox', { name: 'Organization name' })).toBeDisabled();
    expect(section.getByRole('button', { name: 'Request Account Deletion' })).toBeDisabled();
  });
});
