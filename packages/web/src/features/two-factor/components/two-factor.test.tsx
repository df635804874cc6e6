import { accountMessages } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, tokenHal, userHal } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { ToastRegion } from '../../../components/ui/toast.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { OtpResetVerify } from './otp-reset-verify.tsx';
import { OtpEnableForm, OtpSetup } from './otp-setup.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

const configuration = {
  id: 'otp-1',
  uri: 'otpauth://totp/Berth:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Berth',
  selfUrl: 'http://localhost/auth/otp_configurations/otp-1',
};

describe('TwoFactorSection', () => {
  it('shows 2FA off with a Set up link', async () => {
    signIn();
    mockServer({ 'GET /auth/users/user-1': () => json(200, userHal()) });
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByText('disabled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up 2FA' })).toHaveAttribute('href', '/settings/otp-setup');
  });

  it('with 2FA on offers recovery codes, and Disable through elevation', async () => {
    signIn();
    mockServer({ 'GET /auth/users/user-1': () => json(200, { ...userHal(), otp_enabled: true }) });
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByText('enabled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Recovery codes' })).toHaveAttribute(
      'href',
      '/settings/otp-recovery-codes',
    );
    expect(screen.getByRole('link', { name: 'Disable 2FA' }).getAttribute('href')).toMatch(
      /^\/elevate\?redirect=/,
    );
  });

  it('disables 2FA with an elevated token after confirmation, and says the other sessions ended', async () => {
    signIn();
    sessionStore.setElevatedToken(
      fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
    );
    const server = mockServer({
      'GET /auth/users/user-1': () => json(200, { ...userHal(), otp_enabled: true }),
      'PATCH /auth/users/user-1': () => json(200, userHal()),
    });
    renderWithProviders(
      <>
        <TwoFactorSection />
        <ToastRegion />
      </>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Disable 2FA' }));
    await user.click(screen.getByRole('button', { name: 'Confirm disable 2FA' }));
    expect(await screen.findByText('disabled')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/users/user-1')[0]?.body).toEqual({
      type: 'otp',
      otp_enabled: false,
    });
    // spec 1 §8: the server ended the other sessions with the change (no second call), and the toast says so.
    expect(
      await screen.findByText(
        `Two-factor authentication is now disabled.${accountMessages.otherSessionsLoggedOut}`,
      ),
    ).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/tokens/revoke_all_accessible')).toHaveLength(0);
  });
});

describe('OtpEnableForm', () => {
  it('asks for the token, then sends it with the pending configuration', async () => {
    signIn();
    const server = mockServer({
      'PATCH /auth/users/user-1': [
        () => json(401, errorBody(401, 'invalid_credentials', 'The 2FA code is invalid or was already used')),
        () => json(200, { ...userHal(), otp_enabled: true }),
      ],
    });
    const onEnabled = vi.fn();
    renderWithProviders(
      <OtpEnableForm userId="user-1" configuration={configuration} onEnabled={onEnabled} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    expect(await screen.findByText('must enter token')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/users/user-1')).toHaveLength(0);

    await user.type(screen.getByLabelText('2FA Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    expect(await screen.findByText('The 2FA code is invalid or was already used')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    await waitFor(() => expect(onEnabled).toHaveBeenCalled());
    expect(server.callsTo('PATCH', '/auth/users/user-1')[1]?.body).toEqual({
      type: 'otp',
      otp_enabled: true,
      current_otp_configuration: configuration.selfUrl,
      current_otp_configuration_id: 'otp-1',
      otp_token: '123456',
    });
  });
});

describe('OtpSetup', () => {
  it('turns 2FA on and says the other sessions were logged out (spec 1 §8)', async () => {
    signIn();
    const server = mockServer({
      'POST /auth/users/user-1/otp_configurations': () =>
        json(201, {
          id: 'otp-1',
          _type: 'otp_configuration',
          otp_uri: configuration.uri,
          _links: { self: { href: configuration.selfUrl } },
        }),
      'PATCH /auth/users/user-1': () => json(200, { ...userHal(), otp_enabled: true }),
    });
    const { router } = renderWithProviders(
      <>
        <OtpSetup userId="user-1" otpEnabled={false} />
        <ToastRegion />
      </>,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('2FA Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Enable 2FA' }));
    expect(
      await screen.findByText(
        `Two-factor authentication is now enabled. Keep your recovery codes somewhere safe.${accountMessages.otherSessionsLoggedOut}`,
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/otp-recovery-codes'));
    expect(server.callsTo('PATCH', '/auth/users/user-1')).toHaveLength(1);
    expect(server.callsTo('POST', '/auth/tokens/revoke_all_accessible')).toHaveLength(0);
  });
});

describe('OtpResetVerify', () => {
  it('confirms the reset with the link’s ids', async () => {
    const server = mockServer({ 'POST /auth/verifications': () => new Response(null, { status: 204 }) });
    renderWithProviders(<OtpResetVerify challengeId="ch-1" verificationCode="code-1" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reset 2FA' }));
    expect(await screen.findByText(/Two-factor authentication is now disabled/)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/verifications')[0]?.body).toEqual({
      type: 'otp_reset_challenge',
      challenge_id: 'ch-1',
      verification_code: 'code-1',
    });
  });

  it('shows the server’s message for a dead link', async () => {
    mockServer({
      'POST /auth/verifications': () =>
        json(422, errorBody(422, 'invalid_verification', 'This 2FA reset link is invalid or has expired')),
    });
    renderWithProviders(<OtpResetVerify challengeId="ch-1" verificationCode="bad" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reset 2FA' }));
    expect(await screen.findByText('This 2FA reset link is invalid or has expired')).toBeInTheDocument();
  });
});
