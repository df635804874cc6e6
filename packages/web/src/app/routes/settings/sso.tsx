import { compareRoles, samlMetadataPayload, toastMessages } from '@berth/core';
import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import {
  useCreateSamlConfiguration,
  useDeleteSamlConfiguration,
  useSamlConfiguration,
  useUpdateSamlConfiguration,
} from '../../../features/sso/api/saml-configurations.ts';
import { SamlMetadataForm } from '../../../features/sso/components/saml-metadata-form.tsx';
import { SsoLoginIdForm } from '../../../features/sso/components/sso-login-id-form.tsx';
import { SsoProvisioningForm } from '../../../features/sso/components/sso-provisioning-form.tsx';
import { SsoUrls, ssoUrls } from '../../../features/sso/components/sso-urls.tsx';
import { getRuntimeConfig } from '../../../lib/config.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';
import { SsoEnforcementPanel } from './sso-enforcement-panel.tsx';

/**
 * spec 1 §2 /settings/team/sso: the organization's SAML identity provider. Not configured, the metadata
 * form (spec 1 §4 "not configured to configured, by metadata URL or XML"); configured, what the IdP's
 * metadata said, the URLs to give the IdP, the SSO login ID, just-in-time provisioning, new metadata,
 * and removal (refused by the server while SSO is enforced). spec 1 §6: for the Account Owner only;
 * anyone else sees the page with the reason.
 */
function SingleSignOnRoute() {
  const { organization } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const denial = useActionDenial('sso.configure');
  const configuration = useSamlConfiguration(organizationId, denial === null);
  const roles = useOrganizationRoles(organizationId);
  const create = useCreateSamlConfiguration();
  const update = useUpdateSamlConfiguration();
  const remove = useDeleteSamlConfiguration();
  const [failure, setFailure] = useState<string | null>(null);
  const { authUrl, appUrl } = getRuntimeConfig();

  const roleOptions = useMemo(
    () => [...(roles.data ?? [])].sort(compareRoles).map((role) => ({ id: role.id, name: role.name })),
    [roles.data],
  );

  const current = configuration.data ?? null;
  const loading = denial === null && configuration.isPending;
  return (
    <>
      <PageHeader
        title="Single Sign-On"
        description="Let your members log in through your identity provider (Okta, Microsoft Entra ID, …) with SAML 2.0."
      />
      {!organization ? (
        <Banner variant="warning">Choose or create an organization first.</Banner>
      ) : (
        <div className="section-stack">
          {denial !== null ? <Banner variant="warning">{denial}</Banner> : null}
          {failure ? <Banner variant="error">{failure}</Banner> : null}
          {configuration.error ? <Banner variant="error">{configuration.error.message}</Banner> : null}
          {loading ? (
            <Spinner label="Loading single sign-on" />
          ) : current === null ? (
            <>
              <SsoUrls urls={ssoUrls(authUrl, appUrl, organization.id, null)} />
              <div className="card card-body form-card">
                <SamlMetadataForm
                  denial={denial}
                  submitLabel="Configure SSO"
                  onSubmit={async (values) => {
                    await create.mutateAsync({
                      organizationId: organization.id,
                      body: samlMetadataPayload(values),
                    });
                    showToast(toastMessages.saved);
                  }}
                />
              </div>
            </>
          ) : (
            <>
              <DetailList
                label="Configured identity provider"
                items={[
                  { label: 'Entity ID', value: current.entityId },
                  { label: 'Sign-in URL', value: current.signInUrl },
                  { label: 'Sign-out URL', value: current.signOutUrl || 'None' },
                  { label: 'NameID format', value: current.nameFormat || 'Unspecified' },
                  { label: 'Certificate fingerprint (SHA-256)', value: current.certificateFingerprint },
                ]}
              />
              <SsoUrls urls={ssoUrls(authUrl, appUrl, organization.id, current.handle)} />
              <div className="card card-body form-card">
                <SsoLoginIdForm
                  key={current.handle ?? ''}
                  handle={current.handle}
                  denial={denial}
                  onSubmit={async ({ handle }) => {
                    await update.mutateAsync({ configurationId: current.id, body: { handle } });
                    showToast(toastMessages.saved);
                  }}
                />
              </div>
              <div className="card card-body form-card">
                <SsoProvisioningForm
                  key={`${current.jitEnabled}-${current.defaultRoleId}`}
                  jitEnabled={current.jitEnabled}
                  defaultRoleId={current.defaultRoleId}
                  roles={roleOptions}
                  denial={denial}
                  onSubmit={async (values) => {
                    await update.mutateAsync({
                      configurationId: current.id,
                      body: {
                        jit_enabled: values.jit_enabled,
                        default_role_id: values.default_role_id || null,
                      },
                    });
                    showToast(toastMessages.saved);
                  }}
                />
              </div>
              {/* SSO enforcement and the SSO exception list (issue 36): their own panel. */}
              {organization ? <SsoEnforcementPanel organization={organization} configured /> : null}
              <div className="card card-body form-card">
                <SamlMetadataForm
                  key={current.metadataUrl ?? ''}
                  metadataUrl={current.metadataUrl}
                  denial={denial}
                  submitLabel="Save"
                  onSubmit={async (values) => {
                    await update.mutateAsync({
                      configurationId: current.id,
                      body: samlMetadataPayload(values),
                    });
                    showToast(toastMessages.saved);
                  }}
                />
              </div>
              <div className="form-card">
                <ConfirmButton
                  label="Remove SSO configuration"
                  confirmLabel="Confirm remove SSO configuration"
                  warning="Members will log in with their passwords again."
                  denial={denial}
                  size="md"
                  onConfirm={async () => {
                    setFailure(null);
                    try {
                      await remove.mutateAsync(current.id);
                      showToast(toastMessages.success);
                    } catch (error) {
                      setFailure(messageOf(error));
                      throw error;
                    }
                  }}
                >
                  Remove SSO configuration
                </ConfirmButton>
              </div>
            </>
          )}
        </div>
      )}
    </>
  );
}

export { SingleSignOnRoute as Component };
