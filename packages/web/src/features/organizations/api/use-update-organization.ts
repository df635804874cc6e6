import type { OrganizationResource, OrganizationSettingsValues } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOrganizationResource } from '../../../resources/organizations/organization.hal.ts';
import { organizationKeys } from './organization-keys.ts';

export async function updateOrganization(id: string, values: OrganizationSettingsValues) {
  const body = {
    name: values.name,
    address: values.address,
    city: values.city,
    state: values.state,
    zip: values.zip,
    primary_phone: values.primaryPhone,
    emergency_phone: values.emergencyPhone,
    security_alert_email: values.securityAlertEmail,
    ops_alert_email: values.opsAlertEmail,
  };
  return fromOrganizationResource(
    await apiRequest<OrganizationResource>('auth', `/organizations/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body,
    }),
  );
}

/** contract §5.3 PATCH /organizations/:id (contacts); the organizations are read again afterwards. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: OrganizationSettingsValues) => updateOrganization(id, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
