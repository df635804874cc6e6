import { Navigate, useLocation } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import { useAddSshKey, useDeleteSshKey, useSshKeys } from '../../../features/ssh-keys/api/ssh-keys.ts';
import { AddSshKeyForm } from '../../../features/ssh-keys/components/add-ssh-key-form.tsx';
import { SshKeyList } from '../../../features/ssh-keys/components/ssh-key-list.tsx';
import { to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';

/** spec 1 §2 /settings/ssh: the user's SSH keys and Add SSH key, behind reauthentication (spec 1 §6). */
function SshKeysRoute() {
  const session = useSession();
  const location = useLocation();
  const userId = session.accessToken?.userId ?? '';
  const keys = useSshKeys(userId);
  const add = useAddSshKey(userId);
  const remove = useDeleteSshKey(userId);

  if (!validElevatedToken(session)) {
    return <Navigate to={to.elevate(`${location.pathname}${location.search}`)} replace />;
  }
  return (
    <>
      <PageHeader
        title="SSH Keys"
        description="Public keys that may push code and open SSH sessions as you."
      />
      <div className="section-stack">
        {keys.error ? <Banner variant="error">Error: {keys.error.message}</Banner> : null}
        {keys.data ? (
          <SshKeyList keys={keys.data} onDelete={(id) => remove.mutateAsync(id)} />
        ) : keys.isPending ? (
          <Skeleton label="Loading SSH keys" />
        ) : null}
        <AddSshKeyForm onAdd={(input) => add.mutateAsync(input)} />
      </div>
    </>
  );
}

export { SshKeysRoute as Component };
