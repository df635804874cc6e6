import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useAddSecurityKey } from '../../../features/security-keys/api/security-keys.ts';
import { AddSecurityKeyForm } from '../../../features/security-keys/components/add-security-key-form.tsx';
import { RequireElevation } from '../../../features/two-factor/components/require-elevation.tsx';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';

/** spec 1 §2 /settings/add-security-key (needs an elevated token; the server requires 2FA on). */
function AddSecurityKeyRoute() {
  const session = useSession();
  const navigate = useNavigate();
  const add = useAddSecurityKey(session.accessToken?.userId ?? '');
  return (
    <RequireElevation>
      <PageHeader title="Add Security Key" description="A hardware key (WebAuthn) as your second factor" />
      <AddSecurityKeyForm
        onAdd={(name) => add.mutateAsync(name)}
        onAdded={() => navigate(paths.settingsSecurity)}
      />
    </RequireElevation>
  );
}

export { AddSecurityKeyRoute as Component };
