import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { AlreadyLoggedIn } from '../../../features/session/components/already-logged-in.tsx';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { ssoLoginUrl } from '../../sso.ts';

/**
 * spec 1 §2 /sso and /sso/{orgId}: SSO login. The organization id or its SSO login ID is entered (or is
 * in the path: the shortcut login link), then the browser goes to the auth host's
 * /organizations/{orgId}/saml/login with the failure page as redirect_uri (spec 1 §7). A signed-in
 * visitor is told so first (spec 1 §8), and may still go on to SSO.
 */
function SsoLoginRoute() {
  const { orgId } = useParams();
  const { phase } = useSession();
  const [organization, setOrganization] = useState(orgId ?? '');
  const [error, setError] = useState<string | undefined>();
  const [leaving, setLeaving] = useState(false);

  const go = (target: string) => {
    const value = target.trim();
    if (value === '') {
      setError('Organization ID must not be empty');
      return;
    }
    setLeaving(true);
    window.location.assign(ssoLoginUrl(value));
  };

  return (
    <AuthLayout
      title="Log in with SSO"
      subtitle="Enter your organization’s ID or SSO login ID to continue with your identity provider."
      footer={
        <p>
          <Link to={paths.login}>Log in with a password instead</Link>
        </p>
      }
    >
      {phase === 'authenticated' ? <AlreadyLoggedIn continueTo={paths.root} logoutTo={paths.logout} /> : null}
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          go(organization);
        }}
      >
        <TextField
          label="Organization ID or SSO login ID"
          autoComplete="organization"
          value={organization}
          error={error}
          maxLength={100}
          onChange={(event) => {
            setOrganization(event.target.value);
            setError(undefined);
          }}
        />
        <div className="submit-row">
          <Button type="submit" block loading={leaving}>
            Continue with SSO
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}

export { SsoLoginRoute as Component };
