import { type Actor, isOwner, permissionMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';

/**
 * Who may create an environment, as the console asks it: owners only (spec 1 §6; the server refuses
 * others with the same text). The one place the console decides it, for every Create Environment.
 */
export function createEnvironmentDenial(actor: Pick<Actor, 'roleTypes'>): string | null {
  return isOwner(actor) ? null : permissionMessages.ownerOnly;
}

/** Create Environment: a link for owners; for anyone else disabled up front, with the spec's tooltip. */
export function CreateEnvironmentButton({
  to,
  actor,
  icon,
}: {
  to: string;
  actor: Pick<Actor, 'roleTypes'>;
  icon?: ReactNode;
}) {
  const denial = createEnvironmentDenial(actor);
  if (denial === null) {
    return (
      <ButtonLink to={to} icon={icon}>
        Create Environment
      </ButtonLink>
    );
  }
  return (
    <ScopedButton denial={denial} icon={icon}>
      Create Environment
    </ScopedButton>
  );
}
