import type { ReactNode } from 'react';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';

/**
 * Create Environment: a link for those who may (owners, spec 1 §6: the catalog's environment.create); for
 * anyone else disabled up front, with the spec's tooltip.
 */
export function CreateEnvironmentButton({ to, icon }: { to: string; icon?: ReactNode }) {
  return (
    <ScopedButtonLink denial={useActionDenial('environment.create')} to={to} icon={icon}>
      Create Environment
    </ScopedButtonLink>
  );
}
