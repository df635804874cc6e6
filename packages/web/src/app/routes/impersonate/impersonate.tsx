import { Navigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ImpersonationForm } from '../../../features/impersonation/components/impersonation-form.tsx';
import { paths } from '../../../lib/paths.ts';
import { canImpersonate } from '../../../resources/users/user.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2 /impersonate: staff only (spec 1 §6); users who are neither are redirected away. */
function ImpersonateRoute() {
  const { user } = useConsoleContext();
  if (!user || !canImpersonate(user)) return <Navigate to={paths.root} replace />;
  return (
    <>
      <PageHeader
        title="Impersonate"
        description="See the console as another user sees it. Every request you make is logged with your id."
      />
      <ImpersonationForm mayWrite={user.superuser} />
    </>
  );
}

export { ImpersonateRoute as Component };
