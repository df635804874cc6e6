import type { SessionCollection, SessionResource } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse, serviceUrl } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/** One live session of the user (`GET /users/:id/sessions`). */
export interface UserSession {
  id: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  userAgent: string | null;
  ipAddress: string | null;
  current: boolean;
  impersonated: boolean;
}

export function fromSessionResource(session: SessionResource): UserSession {
  return {
    id: idOf(session),
    scope: session.scope,
    createdAt: session.created_at,
    lastUsedAt: session.last_used_at,
    userAgent: session.user_agent,
    ipAddress: session.ip_address,
    current: session.current,
    impersonated: session.impersonated,
  };
}

export const userSessionKeys = {
  all: ['user-sessions'] as const,
  ofUser: (userId: string) => [...userSessionKeys.all, userId] as const,
};

export function useUserSessions(userId: string) {
  return useQuery({
    queryKey: userSessionKeys.ofUser(userId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<SessionCollection>(
        'auth',
        `/users/${encodeURIComponent(userId)}/sessions`,
        {
          signal,
        },
      );
      return (list._embedded?.sessions ?? []).map(fromSessionResource);
    },
    enabled: userId !== '',
  });
}

/** contract §5.1 DELETE /tokens/:id for one other session. */
export function useRevokeSession(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiRequest<EmptyResponse>('auth', `/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionKeys.ofUser(userId) }),
  });
}

/**
 * contract §3.5 "Revoke others": POST /tokens/revoke_all_accessible with the elevated token, keeping
 * this session's access and elevated tokens.
 */
export function useLogOutOtherSessions(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const { accessToken, elevatedToken } = sessionStore.getState();
      const keep = [accessToken, elevatedToken]
        .filter((token) => token !== null)
        .map((token) => serviceUrl('auth', `/tokens/${token.id}`));
      return apiRequest<EmptyResponse>('auth', '/tokens/revoke_all_accessible', {
        method: 'POST',
        auth: 'elevated',
        body: { except_tokens: keep },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userSessionKeys.ofUser(userId) }),
  });
}
