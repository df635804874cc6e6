import type { OtpConfigurationResource, OtpRecoveryCodeCollection, UserResource } from '@berth/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromUserResource } from '../../../resources/users/user.hal.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';

/** A pending 2FA configuration as the setup page shows it (contract §4.1 otp_configuration). */
export interface OtpConfiguration {
  id: string;
  uri: string;
  /** Sent back as `current_otp_configuration` to turn 2FA on. */
  selfUrl: string;
}

export interface RecoveryCode {
  id: string;
  value: string;
  used: boolean;
}

const twoFactorKeys = {
  recoveryCodes: (configurationId: string) => ['two-factor', 'recovery-codes', configurationId] as const,
};

/** POST /users/:id/otp_configurations (elevated): a new pending secret. */
export function useCreateOtpConfiguration(userId: string) {
  return useMutation({
    mutationFn: async (): Promise<OtpConfiguration> => {
      const created = await apiRequest<OtpConfigurationResource>(
        'auth',
        `/users/${encodeURIComponent(userId)}/otp_configurations`,
        { method: 'POST', auth: 'elevated' },
      );
      return { id: String(created.id), uri: created.otp_uri, selfUrl: created._links.self.href };
    },
  });
}

/**
 * PATCH /users/:id type otp (elevated): on with a code of the pending configuration, or off. The server
 * ends every other session of the user with it (as a password change does), keeping this one.
 */
export function useSetOtpEnabled(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      change: { enabled: true; configuration: OtpConfiguration; otpToken: string } | { enabled: false },
    ) => {
      const body = change.enabled
        ? {
            type: 'otp',
            otp_enabled: true,
            current_otp_configuration: change.configuration.selfUrl,
            current_otp_configuration_id: change.configuration.id,
            otp_token: change.otpToken,
          }
        : { type: 'otp', otp_enabled: false };
      const user = await apiRequest<UserResource>('auth', `/users/${encodeURIComponent(userId)}`, {
        method: 'PATCH',
        auth: 'elevated',
        body,
      });
      return fromUserResource(user);
    },
    onSuccess: (user) => queryClient.setQueryData(userKeys.detail(userId), user),
  });
}

function fromCodes(collection: OtpRecoveryCodeCollection): RecoveryCode[] {
  return collection._embedded.otp_recovery_codes.map((code) => ({
    id: String(code.id),
    value: code.value,
    used: code.used,
  }));
}

export function recoveryCodesQuery(configurationId: string) {
  return queryOptions({
    queryKey: twoFactorKeys.recoveryCodes(configurationId),
    queryFn: async ({ signal }) =>
      fromCodes(
        await apiRequest<OtpRecoveryCodeCollection>(
          'auth',
          `/otp_configurations/${encodeURIComponent(configurationId)}/otp_recovery_codes`,
          { auth: 'elevated', signal },
        ),
      ),
  });
}

/** GET /otp_configurations/:id/otp_recovery_codes (elevated). */
export function useRecoveryCodes(configurationId: string | null) {
  return useQuery({ ...recoveryCodesQuery(configurationId ?? ''), enabled: !!configurationId });
}

/** New recovery codes; the old ones stop working. */
export function useRegenerateRecoveryCodes(configurationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      fromCodes(
        await apiRequest<OtpRecoveryCodeCollection>(
          'auth',
          `/otp_configurations/${encodeURIComponent(configurationId)}/otp_recovery_codes`,
          { method: 'POST', auth: 'elevated' },
        ),
      ),
    onSuccess: (codes) => queryClient.setQueryData(twoFactorKeys.recoveryCodes(configurationId), codes),
  });
}

/** POST /verifications type otp_reset_challenge: the member confirms an owner's 2FA reset. */
export function useConfirmOtpReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: { challengeId: string; verificationCode: string }) =>
      apiRequest('auth', '/verifications', {
        method: 'POST',
        body: {
          type: 'otp_reset_challenge',
          challenge_id: link.challengeId,
          verification_code: link.verificationCode,
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** The signed-in user, read with the elevated token when there is one (contract §3.6). */
export function useTwoFactorUser() {
  const { phase, accessToken } = useSession();
  const userId = accessToken?.userId ?? '';
  return useQuery({
    queryKey: userKeys.detail(userId),
    queryFn: async ({ signal }) =>
      fromUserResource(
        await apiRequest<UserResource>('auth', `/users/${encodeURIComponent(userId)}`, {
          auth: 'elevated',
          signal,
        }),
      ),
    enabled: phase === 'authenticated' && userId !== '',
  });
}
