import type { SamlConfigurationCollection, SamlConfigurationResource } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { embeddedList, idOf } from '../../../lib/hal.ts';

/** contract §4.1 saml_configuration as the Single Sign-On page reads it. */
export interface SamlConfiguration {
  id: string;
  organizationId: string;
  entityId: string;
  signInUrl: string;
  signOutUrl: string;
  nameFormat: string;
  certificateFingerprint: string;
  metadataUrl: string | null;
  handle: string | null;
  jitEnabled: boolean;
  defaultRoleId: string | null;
  /** What the IdP is given: the SP metadata (entity ID) and the ACS URL, from the server's links. */
  spMetadataUrl: string;
  acsUrl: string;
}

export function fromSamlConfigurationResource(resource: SamlConfigurationResource): SamlConfiguration {
  const organizationId = resource._links.organization.href.split('/').pop() ?? '';
  return {
    id: idOf(resource),
    organizationId,
    entityId: resource.entity_id,
    signInUrl: resource.sign_in_url,
    signOutUrl: resource.sign_out_url,
    nameFormat: resource.name_format,
    certificateFingerprint: resource.certificate_fingerprint,
    metadataUrl: resource.metadata_url,
    handle: resource.handle,
    jitEnabled: resource.jit_enabled,
    defaultRoleId: resource.default_role_id,
    spMetadataUrl: resource._links.sp_metadata.href,
    acsUrl: resource._links.acs.href,
  };
}

export const samlConfigurationKeys = {
  all: ['saml-configurations'] as const,
};

/**
 * contract §5.4 GET /saml_configurations: no organization in the path (§8.1); the page picks the selected
 * organization's configuration from the list.
 */
export function useSamlConfiguration(organizationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: samlConfigurationKeys.all,
    queryFn: async ({ signal }) => {
      const list = await apiRequest<SamlConfigurationCollection>('auth', '/saml_configurations', { signal });
      return embeddedList(list, 'saml_configurations').map(fromSamlConfigurationResource);
    },
    enabled: enabled && organizationId !== null,
    select: (configurations) =>
      configurations.find((configuration) => configuration.organizationId === organizationId) ?? null,
  });
}

/** The body fields a change sends (contract §5.4 payload, plus just-in-time provisioning). */
export interface SamlConfigurationChange {
  metadata?: string;
  metadata_url?: string;
  handle?: string | null;
  jit_enabled?: boolean;
  default_role_id?: string | null;
}

/** contract §5.4 POST /organizations/:id/saml_configurations. */
export function useCreateSamlConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { organizationId: string; body: SamlConfigurationChange }) =>
      fromSamlConfigurationResource(
        await apiRequest<SamlConfigurationResource>(
          'auth',
          `/organizations/${encodeURIComponent(input.organizationId)}/saml_configurations`,
          { method: 'POST', body: input.body },
        ),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: samlConfigurationKeys.all }),
  });
}

/** contract §5.4 PATCH /saml_configurations/:id: new metadata, the handle, or provisioning. */
export function useUpdateSamlConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { configurationId: string; body: SamlConfigurationChange }) =>
      fromSamlConfigurationResource(
        await apiRequest<SamlConfigurationResource>(
          'auth',
          `/saml_configurations/${encodeURIComponent(input.configurationId)}`,
          { method: 'PATCH', body: input.body },
        ),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: samlConfigurationKeys.all }),
  });
}

/** contract §5.4 DELETE /saml_configurations/:id (refused while SSO is enforced). */
export function useDeleteSamlConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (configurationId: string) =>
      apiRequest<EmptyResponse>('auth', `/saml_configurations/${encodeURIComponent(configurationId)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: samlConfigurationKeys.all }),
  });
}
