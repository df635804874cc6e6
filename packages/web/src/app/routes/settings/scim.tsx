import { compareRoles, provisioningDenial, scimConfigurationMessages, toastMessages } from '@berth/core';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import {
  useCreateScimConfiguration,
  useDeleteScimConfiguration,
  useGenerateScimToken,
  useScimConfiguration,
  useUpdateScimConfiguration,
} from '../../../features/provisioning/api/scim-configurations.ts';
import { DefaultRoleForm } from '../../../features/provisioning/components/default-role-form.tsx';
import { ScimTokenPanel } from '../../../features/provisioning/components/scim-token-panel.tsx';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /settings/team/scim, spec 3's SCIM page: with no configuration the create form (the default
 * role), otherwise the edit form, the SCIM base URL and the token, shown once. spec 1 §6: for the
 * Account Owner with a single assigned organization; anyone else sees the page disabled with the reason.
 */
function ProvisioningRoute() {
  const { organization, organizations, actor, user } = useConsoleContext();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const organizationId = organization?.id ?? null;
  const denial = provisioningDenial(actor, organizations.length);
  const configuration = useScimConfiguration(organizationId, denial === null);
  const roles = useOrganizationRoles(organizationId);
  const create = useCreateScimConfiguration();
  const update = useUpdateScimConfiguration();
  const remove = useDeleteScimConfiguration();
  const generate = useGenerateScimToken();
  const [generated, setGenerated] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // A role provisioning manages is the identity provider's, and the Account Owner role would make every
  // provisioned user an owner: neither can be everyone's default (the server refuses both).
  const roleOptions = useMemo(
    () =>
      [...(roles.data ?? [])]
        .filter((role) => !role.scimCreated && role.type !== 'owner')
        .sort(compareRoles)
        .map((role) => ({ id: role.id, name: role.name })),
    [roles.data],
  );

  const generateToken = async (configurationId: string) => {
    setFailure(null);
    // The token acts for the organization: it is made with the password entered again.
    if (!validElevatedToken(session)) {
      navigate(to.elevate(`${location.pathname}${location.search}`));
      return;
    }
    try {
      setGenerated(await generate.mutateAsync({ configurationId, userId: user?.id ?? '' }));
      showToast(toastMessages.tokenGenerated);
    } catch (error) {
      setFailure(messageOf(error));
      throw error;
    }
  };

  const current = configuration.data ?? null;
  const loading = denial === null && (configuration.isPending || roles.isPending);
  return (
    <>
      <PageHeader
        title="Provisioning"
        description="Let your identity provider (Okta, Microsoft Entra ID, …) add, update and remove members and their groups through SCIM 2.0."
      />
      {!organization ? (
        <Banner variant="warning">Choose or create an organization first.</Banner>
      ) : (
        <div className="section-stack">
          {denial !== null ? <Banner variant="warning">{denial}</Banner> : null}
          {failure ? <Banner variant="error">{failure}</Banner> : null}
          {configuration.error ? <Banner variant="error">{configuration.error.message}</Banner> : null}
          {loading ? (
            <Spinner label="Loading provisioning" />
          ) : current === null ? (
            <div className="card card-body form-card">
              <p>Choose the role provisioned users get, then generate a token for your identity provider.</p>
              <DefaultRoleForm
                roles={roleOptions}
                denial={denial}
                submitLabel="Set up provisioning"
                onSubmit={async ({ default_role_id }) => {
                  await create.mutateAsync({
                    organizationId: organization.id,
                    defaultRoleId: default_role_id,
                  });
                  showToast(toastMessages.saved);
                }}
              />
            </div>
          ) : (
            <>
              <ScimTokenPanel
                configuration={current}
                generated={generated}
                denial={denial}
                onGenerate={() => generateToken(current.id)}
                onDone={() => setGenerated(null)}
              />
              <div className="card card-body form-card">
                <DefaultRoleForm
                  key={current.defaultRoleId}
                  roles={roleOptions}
                  defaultRoleId={current.defaultRoleId}
                  denial={denial}
                  submitLabel="Save"
                  onSubmit={async ({ default_role_id }) => {
                    await update.mutateAsync({ configuration: current, defaultRoleId: default_role_id });
                    showToast(toastMessages.saved);
                  }}
                />
              </div>
              <div className="form-card">
                <ConfirmButton
                  label="Delete configuration"
                  confirmLabel="Confirm delete configuration"
                  warning={scimConfigurationMessages.deleteWarning}
                  denial={denial}
                  size="md"
                  onConfirm={async () => {
                    setFailure(null);
                    try {
                      await remove.mutateAsync(current.id);
                      setGenerated(null);
                      showToast(toastMessages.success);
                    } catch (error) {
                      setFailure(messageOf(error));
                      throw error;
                    }
                  }}
                >
                  Delete configuration
                </ConfirmButton>
              </div>
            </>
          )}
        </div>
      )}
    </>
  );
}

export { ProvisioningRoute as Component };
