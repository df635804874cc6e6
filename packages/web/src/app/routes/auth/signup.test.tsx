import { passwordMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { errorBody, organizationHal, tokenHal, userHal } from '../../../../test/fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { invitationHal } from '../../../../test/team-fixtures.ts';
import { readPersisted } from '../../../lib/persisted-state.ts';

async function completeStepOne(name = 'Ada Lovelace', company = 'Analytical Engines') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Name'), name);
  await user.type(screen.getByLabelText('Company'), company);
  await user.click(screen.getByRole('button', { name: 'Next' }));
  return user;
}

describe('sign-up wizard', () => {
  it('validates step 1: name and company', async () => {
    mockServer({});
    renderApp('/signup');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    expect(screen.getByText('Company must not be empty')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Name'), 'Ada <script>');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Cannot have symbols in name')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });

  it('checks every password rule of core live on step 2', async () => {
    mockServer({});
    renderApp('/signup');
    const user = await completeStepOne();
    const password = await screen.findByLabelText('Password');
    const rules = () => screen.getByRole('list', { name: 'Requirements not yet met' });

    // Nothing typed yet: every rule a short password breaks.
    for (const message of [
      passwordMessages.tooShort,
      passwordMessages.uppercase,
      passwordMessages.lowercase,
      passwordMessages.digitOrSpecial,
    ]) {
      expect(within(rules()).getByText(message)).toBeInTheDocument();
    }

    await user.click(password);
    await user.paste(`Aa1${'x'.repeat(70)}`);
    expect(within(rules()).getByText(passwordMessages.tooLong)).toBeInTheDocument();
    expect(passwordMessages.tooLong).toBe('Too long: Passwords are limited to 72 bytes');
    expect(within(rules()).queryByText(passwordMessages.tooShort)).not.toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'correct horse battery');
    expect(within(rules()).getByText(passwordMessages.uppercase)).toBeInTheDocument();
    expect(within(rules()).getByText(passwordMessages.digitOrSpecial)).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'Correct horse 1');
    expect(screen.getByText('Password meets every requirement.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Email'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Email must not be empty')).toBeInTheDocument();
  });

  it("shows the server's message when the email is taken", async () => {
    mockServer({
      'POST /auth/claims/user': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'Email has already been taken')),
    });
    renderApp('/signup');
    const user = await completeStepOne();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email has already been taken');
  });

  it('creates the user, logs in, creates the organization and sends an unverified user to /verify', async () => {
    const unverified = userHal({ verified: false });
    const server = mockServer({
      'POST /auth/claims/user': () => json(200, {}),
      'POST /auth/users': () => json(201, unverified),
      'POST /auth/tokens': [
        () => json(201, tokenHal()),
        () => json(201, tokenHal({ id: 'tok-2', scope: 'elevated' })),
      ],
      'POST /auth/organizations': () => json(201, organizationHal({ name: 'Engines Ltd' })),
      'POST /auth/users/user-1/email_verification_challenges': () => noContent(),
      ...consoleRoutes({ user: unverified }),
    });
    const { router } = renderApp('/signup');
    const user = await completeStepOne();
    await user.type(await screen.findByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    // Step 3: the organization name starts as the company.
    const name = await screen.findByLabelText('Organization name');
    expect(screen.getByRole('heading', { name: 'Create Organization' })).toBeInTheDocument();
    expect(name).toHaveValue('Analytical Engines');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    await user.type(name, 'Engines Ltd');
    await user.click(screen.getByRole('button', { name: 'Create Organization' }));

    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the local mailbox' })).toHaveAttribute(
      'href',
      'http://berth.test/dev/mail',
    );
    // Issue 34: the mailbox wants this start's secret, which only the server's printed link carries.
    expect(
      screen.getByText(
        'The local mailbox opens once this browser has followed the mailbox link Berth printed when it started.',
      ),
    ).toBeInTheDocument();

    const signupBody = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Correct horse 1',
      company: 'Analytical Engines',
      challengeToken: '',
      origin: 'app',
    };
    expect(server.callsTo('POST', '/auth/claims/user')[0]?.body).toEqual(signupBody);
    expect(server.callsTo('POST', '/auth/users')[0]?.body).toEqual(signupBody);
    expect(server.callsTo('POST', '/auth/organizations')[0]?.body).toEqual({ name: 'Engines Ltd' });
    const [session, elevated] = server.callsTo('POST', '/auth/tokens');
    expect(session?.body).toMatchObject({ scope: 'manage', username: 'ada@example.com' });
    expect(elevated?.body).toMatchObject({ scope: 'elevated' });
    expect(elevated?.credentials).toBe('omit');

    // The Resend form asks for a new mail.
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Success! You should receive an email shortly.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/users/user-1/email_verification_challenges')[0]?.body).toEqual({
      origin: 'app',
    });
  });

  it('is a plain sign-up even when an abandoned invitation link is remembered', async () => {
    // A visitor once opened an invitation and pressed Log in, then left: the claim page is remembered.
    window.localStorage.setItem('redirectPath', '/claim/inv-1/code-42');
    const verified = userHal();
    const server = mockServer({
      'POST /auth/claims/user': () => json(200, {}),
      'POST /auth/users': () => json(201, verified),
      'POST /auth/tokens': [
        () => json(201, tokenHal()),
        () => json(201, tokenHal({ id: 'tok-2', scope: 'elevated' })),
      ],
      'POST /auth/organizations': () => json(201, organizationHal()),
      ...consoleRoutes({ user: verified }),
    });
    const { router } = renderApp('/signup');
    const user = userEvent.setup();
    // The company is required: this is not an invitation sign-up.
    await user.type(await screen.findByLabelText('Name'), 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Company must not be empty')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Company'), 'Analytical Engines');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await user.click(await screen.findByRole('button', { name: 'Create Organization' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(server.callsTo('POST', '/auth/claims/user')).toHaveLength(1);
    expect(server.callsTo('POST', '/auth/users')[0]?.body).toMatchObject({ challengeToken: '' });
    expect(server.callsTo('POST', '/auth/organizations')).toHaveLength(1);
    // Forgotten, so no later login or verification sends the new account to that old invitation.
    expect(readPersisted('redirectPath')).toBeNull();
  });

  it('keeps the invitation when the visitor chooses Log in instead', async () => {
    mockServer({ 'GET /auth/invitations/inv-1': () => json(200, invitationHal()) });
    const { router } = renderApp('/signup?invitation=inv-1&code=code-42');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(readPersisted('redirectPath')).toBe('/claim/inv-1/code-42');
  });

  it('an invitee joins the inviting organization: no Company, no Organization step', async () => {
    const invitee = userHal({ email: 'bob@example.com' });
    const server = mockServer({
      'GET /auth/invitations/inv-1': () => json(200, invitationHal({ email: 'bob@example.com' })),
      'POST /auth/users': () => json(201, invitee),
      'POST /auth/tokens': [
        () => json(201, tokenHal()),
        () => json(201, tokenHal({ id: 'tok-2', scope: 'elevated' })),
      ],
      ...consoleRoutes({ user: invitee }),
    });
    const { router } = renderApp('/signup?invitation=inv-1&code=code-42');
    const progress = await screen.findByRole('list', { name: 'Sign-up progress' });
    expect(
      within(progress)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Step 1: Your details', 'Step 2: Login']);
    expect(
      await screen.findByText('You are joining Analytical Engines by invitation. Tell us who you are.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Company')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Bob Babbage');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // The invited address comes filled in.
    expect(await screen.findByLabelText('Email')).toHaveValue('bob@example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    // Straight on to the invitation's accept page: no organization of their own.
    await waitFor(() => expect(router.state.location.pathname).toBe('/claim/inv-1/code-42'));
    expect(server.callsTo('POST', '/auth/users')[0]?.body).toMatchObject({
      name: 'Bob Babbage',
      company: '',
      challengeToken: 'code-42',
    });
    expect(server.callsTo('POST', '/auth/organizations')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Create Organization' })).not.toBeInTheDocument();
  });

  it('advertises only what this installation does', async () => {
    mockServer({});
    renderApp('/signup');
    const panel = await screen.findByRole('complementary', { name: 'Why Berth' });
    expect(panel).toHaveTextContent('Deploy by git ref');
    expect(panel).not.toHaveTextContent(/2FA|single sign-on|databases/i);
  });
});
