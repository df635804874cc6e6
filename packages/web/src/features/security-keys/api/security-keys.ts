import {
  securityKeyMessages,
  type U2fChallengeResource,
  type U2fDeviceCollection,
  type U2fDeviceResource,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';

/** contract §4.1 u2f device as the console shows it. */
export interface SecurityKey {
  id: string;
  name: string;
  createdAt: string;
}

const securityKeyKeys = {
  all: ['security-keys'] as const,
  ofUser: (userId: string) => [...securityKeyKeys.all, userId] as const,
};

/** contract §5.2 GET /users/:id/u2f_devices (elevated). */
export function useSecurityKeys(userId: string) {
  return useQuery({
    queryKey: securityKeyKeys.ofUser(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<U2fDeviceCollection>(
        'auth',
        `/users/${encodeURIComponent(userId)}/u2f_devices`,
        { auth: 'elevated', signal },
      );
      return (list._embedded?.u2f_devices ?? [])
        .map((key: U2fDeviceResource) => ({ id: idOf(key), name: key.name, createdAt: key.created_at }))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    enabled: userId !== '',
  });
}

/**
 * Add Security Key (contract §5.2): a challenge, the browser's prompt (`navigator.credentials.create`,
 * through @simplewebauthn/browser, loaded only here), then the attestation with the key's name.
 */
export function useAddSecurityKey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const webauthn = await import('@simplewebauthn/browser');
      if (!webauthn.browserSupportsWebAuthn()) throw new Error(securityKeyMessages.unsupported);
      const challenge = await apiRequest<U2fChallengeResource>(
        'auth',
        `/users/${encodeURIComponent(userId)}/u2f_challenges`,
        { method: 'POST', auth: 'elevated' },
      );
      if (!challenge?.payload) throw new Error(securityKeyMessages.challengeMissing);
      const attestation = await webauthn.startRegistration({
        // The server's options are webauthn-json already (contract §4.1 u2f_challenge).
        optionsJSON: challenge.payload as unknown as Parameters<
          typeof webauthn.startRegistration
        >[0]['optionsJSON'],
      });
      return apiRequest<U2fDeviceResource>('auth', `/users/${encodeURIComponent(userId)}/u2f_devices`, {
        method: 'POST',
        auth: 'elevated',
        body: { name, version: 'WEBAUTHN', u2f: attestation },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeyKeys.ofUser(userId) }),
  });
}

/** contract §5.2 DELETE /u2f_devices/:id (elevated). */
export function useDeleteSecurityKey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      apiRequest<EmptyResponse>('auth', `/u2f_devices/${encodeURIComponent(keyId)}`, {
        method: 'DELETE',
        auth: 'elevated',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeyKeys.ofUser(userId) }),
  });
}
