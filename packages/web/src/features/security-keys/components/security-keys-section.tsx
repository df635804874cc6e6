import { securityKeyMessages } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { useDeleteSecurityKey, useSecurityKeys } from '../api/security-keys.ts';

/** spec 1 §2 Security Settings "Security Keys": the user's keys, Add Security Key, and Delete. */
export function SecurityKeysSection() {
  const session = useSession();
  const userId = session.accessToken?.userId ?? '';
  const keys = useSecurityKeys(userId);
  const remove = useDeleteSecurityKey(userId);

  return (
    <section className="card card-body form-card" aria-labelledby="security-keys-title">
      <h2 id="security-keys-title">Security Keys</h2>
      <p>Hardware security keys can be used instead of a 2FA code when you log in.</p>
      {keys.isError ? <Banner variant="error">{keys.error.message}</Banner> : null}
      {keys.data && keys.data.length > 0 ? (
        <ul className="stack" aria-label="Security keys">
          {keys.data.map((key) => (
            <li key={key.id} className="button-row">
              <span>
                <strong>{key.name}</strong> · added {formatDateTime(key.createdAt)}
              </span>
              <ConfirmButton
                label={`Delete ${key.name}`}
                confirmLabel={`Confirm delete ${key.name}`}
                warning="You will no longer be able to log in with this key."
                denial={null}
                onConfirm={async () => {
                  try {
                    await remove.mutateAsync(key.id);
                    showToast(securityKeyMessages.deleted);
                  } catch (error) {
                    showToast(error instanceof Error ? error.message : String(error), 'error');
                    throw error;
                  }
                }}
              >
                Delete
              </ConfirmButton>
            </li>
          ))}
        </ul>
      ) : keys.data ? (
        <p>No security keys added.</p>
      ) : null}
      <div className="button-row">
        <ButtonLink to={paths.addSecurityKey} variant="secondary">
          Add Security Key
        </ButtonLink>
      </div>
    </section>
  );
}
