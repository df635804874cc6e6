import type { SshKeyCollection, SshKeyInput, SshKeyResource } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';

/** contract §4.1 ssh_key as the console shows it. */
export interface SshKey {
  id: string;
  name: string;
  publicKey: string;
  sha256Fingerprint: string;
  md5Fingerprint: string;
  createdAt: string;
}

export function fromSshKeyResource(key: SshKeyResource): SshKey {
  return {
    id: idOf(key),
    name: key.name,
    publicKey: key.ssh_public_key,
    sha256Fingerprint: key.sha256_fingerprint,
    md5Fingerprint: key.md5_fingerprint,
    createdAt: key.created_at,
  };
}

export const sshKeyKeys = {
  all: ['ssh-keys'] as const,
  ofUser: (userId: string) => [...sshKeyKeys.all, userId] as const,
};

/** contract §5.2 GET /users/:id/ssh_keys, sorted by creation. */
export function useSshKeys(userId: string) {
  return useQuery({
    queryKey: sshKeyKeys.ofUser(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<SshKeyCollection>(
        'auth',
        `/users/${encodeURIComponent(userId)}/ssh_keys`,
        {
          signal,
        },
      );
      return (list._embedded?.ssh_keys ?? [])
        .map(fromSshKeyResource)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },
    enabled: userId !== '',
  });
}

/** contract §5.2 POST /users/:id/ssh_keys `{name, ssh_public_key}`, sent with the elevated token (§3.6). */
export function useAddSshKey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SshKeyInput) =>
      fromSshKeyResource(
        await apiRequest<SshKeyResource>('auth', `/users/${encodeURIComponent(userId)}/ssh_keys`, {
          method: 'POST',
          auth: 'elevated',
          body: input,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sshKeyKeys.ofUser(userId) }),
  });
}

/** contract §5.2 DELETE /ssh_keys/:id. */
export function useDeleteSshKey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      apiRequest<EmptyResponse>('auth', `/ssh_keys/${encodeURIComponent(keyId)}`, {
        method: 'DELETE',
        auth: 'elevated',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sshKeyKeys.ofUser(userId) }),
  });
}
