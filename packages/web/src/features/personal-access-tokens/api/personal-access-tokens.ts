import type {
  CreatedPersonalAccessTokenResource,
  PersonalAccessTokenCollection,
  PersonalAccessTokenInput,
  PersonalAccessTokenResource,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';

/** One personal access token as the console shows it (never the token itself). */
export interface PersonalAccessToken {
  id: string;
  name: string;
  scope: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  expired: boolean;
}

/** A token just made: the one time the console holds the token itself. */
export interface CreatedPersonalAccessToken extends PersonalAccessToken {
  accessToken: string;
}

export function fromPersonalAccessTokenResource(token: PersonalAccessTokenResource): PersonalAccessToken {
  return {
    id: idOf(token),
    name: token.name,
    scope: token.scope,
    createdAt: token.created_at,
    expiresAt: token.expires_at,
    lastUsedAt: token.last_used_at,
    expired: token.expired,
  };
}

export const personalAccessTokenKeys = {
  all: ['personal-access-tokens'] as const,
  ofUser: (userId: string) => [...personalAccessTokenKeys.all, userId] as const,
};

/** GET /users/:id/personal_access_tokens: one short page (an account holds at most 50 live tokens). */
export function usePersonalAccessTokens(userId: string) {
  return useQuery({
    queryKey: personalAccessTokenKeys.ofUser(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<PersonalAccessTokenCollection>(
        'auth',
        `/users/${encodeURIComponent(userId)}/personal_access_tokens`,
        { signal },
      );
      return (list._embedded?.personal_access_tokens ?? []).map(fromPersonalAccessTokenResource);
    },
    enabled: userId !== '',
  });
}

/** POST /users/:id/personal_access_tokens with the elevated token (the password entered again). */
export function useCreatePersonalAccessToken(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PersonalAccessTokenInput): Promise<CreatedPersonalAccessToken> => {
      const created = await apiRequest<CreatedPersonalAccessTokenResource>(
        'auth',
        `/users/${encodeURIComponent(userId)}/personal_access_tokens`,
        { method: 'POST', auth: 'elevated', body: input },
      );
      return { ...fromPersonalAccessTokenResource(created), accessToken: created.access_token };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalAccessTokenKeys.ofUser(userId) }),
  });
}

/** contract §5.1 DELETE /tokens/:id: revoking a personal access token is revoking one of the user's tokens. */
export function useRevokePersonalAccessToken(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiRequest<EmptyResponse>('auth', `/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalAccessTokenKeys.ofUser(userId) }),
  });
}
