import type { GeneratedScimToken, ScimConfigurationCollection, ScimConfigurationResource } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { embeddedList, idOf } from '../../../lib/hal.ts';

/** contract §4.1 scim_configuration as the Provisioning page reads it (never the token itself). */
export interface ScimConfiguration {
  id: string;
  organizationId: string;
  defaultRoleId: string;
  /** The current token's id; null while none was generated. */
  tokenId: string | null;
  tokenCreatedAt: string | null;
  /** The SCIM base URL to give the identity provider. */
  scimBaseUrl: string;
}

export function fromScimConfigurationResource(resource: ScimConfigurationResource): ScimConfiguration {
  return {
    id: idOf(resource),
    organizationId: resource.organization_id,
    defaultRoleId: resource.default_role_id,
    tokenId: resource.token_id || null,
    tokenCreatedAt: resource.token_created_at,
    scimBaseUrl: resource._links.scim_base.href,
  };
}

export const scimConfigurationKeys = {
  all: ['scim-configurations'] as const,
};

/**
 * contract §5.4 GET /scim_configurations: no organization in the path (§8.1); the page picks the selected
 * organization's configuration from the list.
 */
export function useScimConfiguration(organizationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: scimConfigurationKeys.all,
    queryFn: async ({ signal }) => {
      const list = await apiRequest<ScimConfigurationCollection>('auth', '/scim_configurations', { signal });
      return embeddedList(list, 'scim_configurations').map(fromScimConfigurationResource);
    },
    enabled: enabled && organizationId !== null,
    select: (configurations) =>
      configurations.find((configuration) => configuration.organizationId === organizationId) ?? null,
  });
}

/** contract §5.4 POST /scim_configurations, wrapped, with the unique identifier spec 1 §9 fixes. */
export function useCreateScimConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { organizationId: string; defaultRoleId: string }) =>
      fromScimConfigurationResource(
        await apiRequest<ScimConfigurationResource>('auth', '/scim_configurations', {
          method: 'POST',
          body: {
            scim_configuration: {
              organization_id: input.organizationId,
              default_role_id: input.defaultRoleId,
              unique_identifier: 'email',
            },
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimConfigurationKeys.all }),
  });
}

/** contract §5.4 PATCH /scim_configurations/:id: a new default role. */
export function useUpdateScimConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { configuration: ScimConfiguration; defaultRoleId: string }) =>
      fromScimConfigurationResource(
        await apiRequest<ScimConfigurationResource>(
          'auth',
          `/scim_configurations/${encodeURIComponent(input.configuration.id)}`,
          {
            method: 'PATCH',
            body: {
              scim_configuration: {
                organization_id: input.configuration.organizationId,
                default_role_id: input.defaultRoleId,
              },
            },
          },
        ),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimConfigurationKeys.all }),
  });
}

/** contract §5.4 DELETE /scim_configurations/:id. */
export function useDeleteScimConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (configurationId: string) =>
      apiRequest<EmptyResponse>('auth', `/scim_configurations/${encodeURIComponent(configurationId)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimConfigurationKeys.all }),
  });
}

/**
 * contract §5.4 POST /scim_configurations/generate_token with the elevated token (the password entered
 * again, as for a personal access token); the answer is the only time the token is shown.
 */
export function useGenerateScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { configurationId: string; userId: string }) => {
      const generated = await apiRequest<GeneratedScimToken>('auth', '/scim_configurations/generate_token', {
        method: 'POST',
        auth: 'elevated',
        body: { scim_configuration_id: input.configurationId, user_id: input.userId },
      });
      return generated.token;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimConfigurationKeys.all }),
  });
}
