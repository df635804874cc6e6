import { type Actor, buildActor } from '@berth/core';
import { useMemo } from 'react';
import { useOutletContext } from 'react-router';
import { useEnvironments } from '../../features/environments/api/use-environments.ts';
import { useOrganizations } from '../../features/organizations/api/use-organizations.ts';
import { useOrganizationRoles } from '../../features/roles/api/use-organization-roles.ts';
import { useUserRoles } from '../../features/roles/api/use-user-roles.ts';
import { useStacks } from '../../features/stacks/api/use-stacks.ts';
import { useCurrentUser } from '../../features/users/api/use-user.ts';
import { combineLoaders, type Loader, loaderOf } from '../../lib/loaders.ts';
import type { Environment } from '../../resources/environments/environment.hal.ts';
import { consoleOrganization, type Organization } from '../../resources/organizations/organization.hal.ts';
import { defaultStack, type Stack, stacksForOrganization } from '../../resources/stacks/stack.hal.ts';
import type { User } from '../../resources/users/user.hal.ts';

export interface ConsoleData {
  /** contract §7 steps 2-6, the "required data" the guards and shell wait for. */
  required: Loader;
  /** contract §7 step 7 (the api lists that exist so far). */
  resources: Loader;
  user: User | null;
  organizations: Organization[];
  organization: Organization | null;
  /** Stacks the selected organization may use. */
  stacks: Stack[];
  /** All stacks the caller sees (environments may sit on any of them). */
  allStacks: Stack[];
  environments: Environment[];
  actor: Actor;
  /** The stack the organization switcher names: the organization's own, else the default shared one. */
  organizationStack: Stack | null;
  retry: () => void;
}

/** The start-up data (contract §7) and what the console derives from it, shared by the shell and pages. */
export function useConsole(): ConsoleData {
  const user = useCurrentUser();
  const organizations = useOrganizations();
  // With none usable, the organization is shown with its SSO error (app-shell).
  const organization = consoleOrganization(
    organizations.data ?? [],
    user.data?.selectedOrganizationId ?? null,
  );
  // Its resources answer 403 to this session: nothing of it is asked for.
  const usableOrganizationId = organization && !organization.reauthRequired ? organization.id : null;
  const organizationRoles = useOrganizationRoles(usableOrganizationId);
  const userRoles = useUserRoles();
  const stacks = useStacks();
  const environments = useEnvironments();

  const required = combineLoaders([user, organizations, organizationRoles, userRoles].map(loaderOf));
  const resources = combineLoaders([stacks, environments].map(loaderOf));

  const derived = useMemo(() => {
    const organizationId = organization?.id ?? '';
    const ownEnvironments = (environments.data ?? []).filter(
      (environment) => environment.organizationId === organizationId,
    );
    const usable = stacksForOrganization(stacks.data ?? [], organizationId);
    const actor = buildActor(
      userRoles.data ?? [],
      ownEnvironments.flatMap((environment) => environment.permissions),
      organizationId,
    );
    const organizationStack =
      usable.find((stack) => stack.organizationId === organizationId) ?? defaultStack(usable) ?? null;
    return { actor, ownEnvironments, usable, organizationStack };
  }, [organization?.id, userRoles.data, environments.data, stacks.data]);

  return {
    required,
    resources,
    user: user.data ?? null,
    organizations: organizations.data ?? [],
    organization,
    stacks: derived.usable,
    allStacks: stacks.data ?? [],
    environments: derived.ownEnvironments,
    actor: derived.actor,
    organizationStack: derived.organizationStack,
    retry: () => {
      for (const query of [user, organizations, organizationRoles, userRoles, stacks, environments]) {
        if (query.isError) void query.refetch();
      }
    },
  };
}

/** Pages inside the shell read the start-up data the shell already loaded. */
export function useConsoleContext(): ConsoleData {
  return useOutletContext<ConsoleData>();
}
