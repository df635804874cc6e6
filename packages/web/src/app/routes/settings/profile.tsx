import { accountMessages, scimMessages } from '@berth/core';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useUpdateName } from '../../../features/account/api/use-update-name.ts';
import { ProfileForm } from '../../../features/account/components/profile-form.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** contract §4.1: a provisioned (SCIM) user's name comes from the identity provider, so the console locks it. */
export const MANAGED_NAME = scimMessages.nameManaged;

/** spec 1 §2 /settings/profile: the user's name. */
function ProfileRoute() {
  const { user } = useConsoleContext();
  const update = useUpdateName(user?.id ?? '');
  return (
    <>
      <PageHeader title="Profile" description={user ? user.email : undefined} />
      {user ? (
        <div className="card card-body form-card">
          <ProfileForm
            key={user.id}
            name={user.name}
            denial={user.externalId ? MANAGED_NAME : null}
            onSubmit={async ({ name }) => {
              await update.mutateAsync(name);
              showToast(accountMessages.nameUpdated);
            }}
          />
        </div>
      ) : null}
    </>
  );
}

export { ProfileRoute as Component };
