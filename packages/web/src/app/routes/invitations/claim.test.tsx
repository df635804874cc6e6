import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import {
  collection,
  errorBody,
  HOST,
  organizationHal,
  tokenHal,
  userHal,
} from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { invitationHal } from '../../../../test/team-fixtures.ts';
import { readPersisted } from '../../../lib/persisted-state.ts';

const CLAIM = '/claim/inv-1/code-42';

describe('invitation claim (spec 1 §4, §8; contract §3.9)', () => {
  it('says the invitation was not found, with the spec’s two spaces', async () => {
    mockServer({
      'GET /auth/invitations/inv-1': () => json(404, errorBody(404, 'not_found', 'Invitation not found')),
    });
    renderApp(CLAIM);
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toBe(
      'We could not find this invitation.  So either it never existed or was later revoked.',
    );
  });

  it('shows a signed-out visitor the invitation, asked without a token, and comes back after Log in', async () => {
    const server = mockServer({ 'GET /auth/invitations/inv-1': () => json(200, invitationHal()) });
    const { router } = renderApp(CLAIM);
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' })).toBeInTheDocument();
    expect(screen.getByText('Deployers', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace', { selector: 'dd' })).toBeInTheDocument();
    expect(server.calls[0]?.headers.Authorization).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(readPersisted('redirectPath')).toBe(CLAIM);
  });

  it('hands the invitation to Sign up explicitly, remembering nothing that could outlive the link', async () => {
    mockServer({ 'GET /auth/invitations/inv-1': () => json(200, invitationHal()) });
    const { router } = renderApp(CLAIM);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    expect(router.state.location.search).toBe('?invitation=inv-1&code=code-42');
    expect(readPersisted('redirectPath')).toBeNull();
  });

  it('shows why the signed-in account could not be loaded instead of offering Accept', async () => {
    signIn({ userId: 'user-2', email: 'bob@example.com' });
    mockServer({
      ...consoleRoutes({ user: userHal({ id: 'user-2', email: 'bob@example.com' }) }),
      'GET /auth/users/user-2': () =>
        json(500, errorBody(500, 'internal_error', 'The user service is unavailable')),
      // Not Bob's address: had the page not known him, it would have offered Accept anyway.
      'GET /auth/invitations/inv-1': () => json(200, invitationHal({ email: 'carol@example.com' })),
    });
    renderApp(CLAIM);
    expect(await screen.findByRole('alert')).toHaveTextContent('The user service is unavailable');
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says an expired invitation has expired', async () => {
    mockServer({
      'GET /auth/invitations/inv-1': () =>
        json(200, invitationHal({ expiresAt: '2020-01-01T00:00:00.000Z' })),
    });
    renderApp(CLAIM);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation to join Analytical Engines has expired. Please request a new invite from Ada Lovelace.',
    );
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('tells a signed-in user of another address that the invitation is not theirs', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /auth/invitations/inv-1': () => json(200, invitationHal({ email: 'bob@example.com' })),
    });
    renderApp(CLAIM);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation (bob@example.com) is not associated with your account (ada@example.com). Please log in with the correct account.',
    );
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
  });

  it('accepts: verification, token exchange for oneself, selects the organization, then home', async () => {
    signIn({ userId: 'user-2', email: 'bob@example.com' });
    const bob = userHal({ id: 'user-2', name: 'Bob Babbage', email: 'bob@example.com' });
    const server = mockServer({
      ...consoleRoutes({ user: bob, organizations: [organizationHal({ id: 'org-1' })] }),
      'GET /auth/invitations/inv-1': () => json(200, invitationHal({ email: 'Bob@Example.com' })),
      'POST /auth/verifications': () => noContent(),
      'POST /auth/tokens': () =>
        json(201, tokenHal({ id: 'tok-2', userId: 'user-2', email: 'bob@example.com' })),
      'PUT /auth/users/user-2': () => json(200, userHal({ id: 'user-2', selectedOrganizationId: 'org-1' })),
    });
    const { router } = renderApp(CLAIM);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept Invitation' }));

    await waitFor(() => expect(router.state.location.pathname).not.toBe(CLAIM));
    expect(server.callsTo('POST', '/auth/verifications')[0]?.body).toEqual({
      type: 'invitation',
      invitation_id: 'inv-1',
      verification_code: 'code-42',
    });
    const exchange = server.callsTo('POST', '/auth/tokens')[0];
    expect(exchange?.body).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      subject_token_type: 'berth:user:href',
      subject_token: `${HOST}/auth/users/user-2`,
      scope: 'manage',
      sso_organization: '',
      expires_in: 86090,
    });
    expect(server.callsTo('PUT', '/auth/users/user-2')[0]?.body).toEqual({
      selected_organization_id: 'org-1',
    });
    // The boot reloads the organizations after the exchange; under load it comes a moment after navigation.
    await waitFor(() => expect(server.callsTo('GET', '/auth/organizations').length).toBeGreaterThan(0));
  });

  it("shows the server's message when accepting fails", async () => {
    signIn({ userId: 'user-2', email: 'bob@example.com' });
    mockServer({
      ...consoleRoutes({ user: userHal({ id: 'user-2', email: 'bob@example.com' }) }),
      'GET /auth/invitations/inv-1': () => json(200, invitationHal()),
      'POST /auth/verifications': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'This invitation code is invalid or has expired')),
      'GET /auth/organizations/org-1/roles': () => json(200, collection('roles', [])),
    });
    renderApp(CLAIM);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation code is invalid or has expired',
    );
  });

  it('signs up from the invitation: company optional, the code proves the address, back to the claim page', async () => {
    const bob = userHal({ id: 'user-2', name: 'Bob Babbage', email: 'bob@example.com' });
    const server = mockServer({
      ...consoleRoutes({ user: bob, organizations: [], roles: [] }),
      'POST /auth/users': () => json(201, bob),
      'POST /auth/tokens': () =>
        json(201, tokenHal({ id: 'tok-2', userId: 'user-2', email: 'bob@example.com' })),
      'GET /auth/invitations/inv-1': () => json(200, invitationHal()),
    });
    const { router } = renderApp('/signup?invitation=inv-1&code=code-42');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Bob Babbage');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // The invited address is filled in already.
    expect(await screen.findByLabelText('Email')).toHaveValue('bob@example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(CLAIM));
    expect(await screen.findByRole('button', { name: 'Accept Invitation' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/claims/user')).toHaveLength(0);
    expect(server.callsTo('POST', '/auth/organizations')).toHaveLength(0);
    expect(server.callsTo('POST', '/auth/users')[0]?.body).toMatchObject({
      email: 'bob@example.com',
      company: '',
      challengeToken: 'code-42',
    });
  });
});
