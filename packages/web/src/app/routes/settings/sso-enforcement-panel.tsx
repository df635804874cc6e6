import { toastMessages } from '@berth/core';
import { useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useSsoEnforcement } from '../../../features/organizations/api/use-sso-enforcement.ts';
import { SsoEnforcementToggle } from '../../../features/organizations/components/sso-enforcement-toggle.tsx';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { useOrganizationUsers } from '../../../features/users/api/use-organization-users.ts';
import { useAddWhitelistMembership } from '../../../features/whitelist-memberships/api/use-add-whitelist-membership.ts';
import { useRemoveWhitelistMembership } from '../../../features/whitelist-memberships/api/use-remove-whitelist-membership.ts';
import { useWhitelistMemberships } from '../../../features/whitelist-memberships/api/use-whitelist-memberships.ts';
import {
  type SsoException,
  type SsoExceptionCandidate,
  SsoExceptionList,
} from '../../../features/whitelist-memberships/components/sso-exception-list.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';

export interface SsoEnforcementPanelProps {
  organization: Organization;
  /** The organization has a SAML configuration: enforcement needs one (the server refuses it before). */
  configured: boolean;
}

/**
 * The enforcement half of the Single Sign-On page (issue 36): the Enable/Disable toggle and the SSO
 * exception list, composed from the organizations, members and whitelist features. Nothing until SSO is
 * configured.
 */
export function SsoEnforcementPanel({ organization, configured }: SsoEnforcementPanelProps) {
  const denial = useActionDenial('sso.configure');
  const mayManage = denial === null;
  const enforcement = useSsoEnforcement(organization.id);
  // The list is the Account Owner's (the server answers 403 to anyone else): asked for by them only.
  const exceptions = useWhitelistMemberships(organization.id, configured && mayManage);
  const users = useOrganizationUsers(organization.id);
  const memberships = useOrganizationMemberships(organization.id);
  const roles = useOrganizationRoles(organization.id);
  const add = useAddWhitelistMembership(organization.id);
  const remove = useRemoveWhitelistMembership(organization.id);

  const { listed, candidates } = useMemo(() => {
    const ownerRoleIds = new Set(
      (roles.data ?? []).filter((role) => role.type === 'owner').map((role) => role.id),
    );
    const owners = new Set(
      (memberships.data ?? []).filter((m) => ownerRoleIds.has(m.roleId)).map((m) => m.userId),
    );
    const members = users.data ?? [];
    const byId = new Map(members.map((member) => [member.id, member]));
    const listed: SsoException[] = (exceptions.data ?? []).map((entry) => {
      const member = byId.get(entry.userId);
      return { id: entry.id, name: member?.name ?? entry.userId, email: member?.email ?? '' };
    });
    const onList = new Set((exceptions.data ?? []).map((entry) => entry.userId));
    // spec 1 §6: owners cannot be added to the list (they are exempt already).
    const candidates: SsoExceptionCandidate[] = members
      .filter((member) => !owners.has(member.id) && !onList.has(member.id))
      .map((member) => ({ userId: member.id, label: `${member.name} (${member.email})` }));
    return { listed, candidates };
  }, [roles.data, memberships.data, users.data, exceptions.data]);

  if (!configured) return null;
  return (
    <div className="section-stack">
      <SsoEnforcementToggle
        organizationName={organization.name}
        enforced={organization.ssoEnforced}
        denial={denial}
        onChange={async (enforced) => {
          await enforcement.mutateAsync(enforced);
          showToast(enforced ? toastMessages.ssoEnforcementEnabled : toastMessages.saved);
        }}
      />
      {mayManage ? (
        exceptions.error ? (
          <Banner variant="error">{exceptions.error.message}</Banner>
        ) : (
          <SsoExceptionList
            exceptions={listed}
            candidates={candidates}
            denial={denial}
            onAdd={(userId) => add.mutateAsync(userId)}
            onRemove={(exception) => remove.mutateAsync(exception.id)}
          />
        )
      ) : null}
    </div>
  );
}
