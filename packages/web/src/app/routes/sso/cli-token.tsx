import { Link } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { CliTokenRequestForm } from '../../../features/cli-tokens/components/cli-token-request-form.tsx';
import { useOrganizations } from '../../../features/organizations/api/use-organizations.ts';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { chooseOrganization } from '../../../resources/organizations/organization.hal.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { cliTokenLoginUrl } from '../../sso.ts';

/**
 * spec 3 "CLI token": a lifetime is chosen (1 hour to 1 week, a week by default), then the browser goes
 * to the auth host's SSO login with landing_page=clitoken; the login ends on /sso/cli/read with the
 * token. Signed out works too (the SSO login is the proof); signed in, the selected organization is offered.
 */
function CliTokenRoute() {
  const { phase } = useSession();
  const organizations = useOrganizations();
  const user = useCurrentUser();
  const signedIn = phase === 'authenticated';
  if (signedIn && (organizations.isPending || user.isPending) && !organizations.isError && !user.isError) {
    return <FullPageSpinner label="Loading your organization" />;
  }
  const selected = chooseOrganization(organizations.data ?? [], user.data?.selectedOrganizationId ?? null);
  return (
    <AuthLayout
      title="CLI SSO Token"
      subtitle="Log in through your organization’s identity provider to get a token for the Berth CLI."
      footer={
        <p>
          <Link to={signedIn ? paths.root : paths.login}>{signedIn ? 'Back to the console' : 'Log in'}</Link>
        </p>
      }
    >
      <CliTokenRequestForm
        organization={selected?.id ?? ''}
        onRequest={(organization, durationSeconds) =>
          window.location.assign(cliTokenLoginUrl(organization, durationSeconds))
        }
      />
    </AuthLayout>
  );
}

export { CliTokenRoute as Component };
