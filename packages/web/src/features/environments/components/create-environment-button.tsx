import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';

/**
 * Create Environment: a link for those who may (owners, spec 1 §6: the catalog's environment.create); for
 * anyone else disabled up front, with the spec's tooltip.
 */
export function CreateEnvironmentButton({ to, icon }: { to: string; icon?: ReactNode }) {
  const denial = useActionDenial('environment.create');
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
