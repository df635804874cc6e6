import { hasFullVisibilityAnywhere, isOrganizationToken } from '@berth/core';
import { type ReactNode, useMemo } from 'react';
import { Link, Outlet } from 'react-router';
import { Banner } from '../../components/ui/banner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FullPageSpinner } from '../../components/ui/spinner.tsx';
import { ImpersonationBanner } from '../../features/impersonation/components/impersonation-banner.tsx';
import { useSelectOrganization } from '../../features/users/api/use-select-organization.ts';
import { ActorProvider } from '../../lib/actor.tsx';
import { getRuntimeConfig } from '../../lib/config.ts';
import { EnvironmentNamesProvider } from '../../lib/environment-names.tsx';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session-store.ts';
import { useTheme } from '../../lib/theme.ts';
import { canImpersonate } from '../../resources/users/user.hal.ts';
import { isHomeEnabled } from '../feature-flags.ts';
import { ssoLoginUrl } from '../sso.ts';
import { Sidebar } from './sidebar.tsx';
import { StartupLists } from './startup-lists.tsx';
import { type ConsoleData, useConsole } from './use-console.ts';
import './shell.css';

function SsoRequiredBanner({ organization }: { organization: NonNullable<ConsoleData['organization']> }) {
  return (
    <Banner
      variant="error"
      title="SSO Login Required"
      actions={<a href={ssoLoginUrl(organization.id)}>Log in with SSO</a>}
    >
      Organization {organization.name} requires SSO!
    </Banner>
  );
}

/**
 * The frame of every signed-in page: side navigation, start-up data and the organization banners. As a
 * route it renders its child routes; `children` frames a page outside the route tree (the 404).
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const data = useConsole();
  const { accessToken } = useSession();
  const { theme, toggleTheme } = useTheme();
  const selectOrganization = useSelectOrganization();
  const { docsUrl } = getRuntimeConfig();
  const environmentName = useMemo(() => {
    const handles = new Map(data.environments.map((environment) => [environment.id, environment.handle]));
    return (environmentId: string) => handles.get(environmentId);
  }, [data.environments]);

  if (data.required.status === 'error') {
    return (
      <main className="full-page-center">
        <div className="shell-failure">
          <Banner variant="error" title="Berth could not load your account">
            Error: {data.required.message}
          </Banner>
          <div className="form-actions">
            <Link className="button button-secondary button-md" to={paths.logout}>
              Logout
            </Link>
            <Button onClick={data.retry}>Try again</Button>
          </div>
        </div>
      </main>
    );
  }
  if (data.required.status !== 'success' || !data.user)
    return <FullPageSpinner label="Loading your console" />;

  const { organization, organizations } = data;
  // contract §7: an SSO-enforcing organization, a non-SSO token and a single organization.
  const ssoRequired =
    organization?.ssoEnforced &&
    !isOrganizationToken(accessToken?.claims ?? null) &&
    organizations.length === 1;

  return (
    <ActorProvider actor={data.actor}>
      <EnvironmentNamesProvider names={environmentName}>
        <div className="shell">
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <Sidebar
            organizations={organizations}
            organization={organization}
            stackName={data.organizationStack?.name ?? null}
            switchingTo={selectOrganization.isPending ? (selectOrganization.variables ?? null) : null}
            onSelectOrganization={(organizationId) => selectOrganization.mutate(organizationId)}
            homeEnabled={isHomeEnabled(organization?.id ?? null)}
            fullVisibility={hasFullVisibilityAnywhere(data.actor)}
            canImpersonate={canImpersonate(data.user)}
            docsUrl={docsUrl}
            theme={theme}
            onToggleTheme={toggleTheme}
          />
          {organization ? <StartupLists organizationId={organization.id} /> : null}
          <main className="shell-main" id="main" tabIndex={-1}>
            <div className="shell-banners">
              <ImpersonationBanner />
              {organization ? null : (
                <Banner
                  variant="warning"
                  title="Select an organization"
                  actions={
                    <>
                      <Link to={paths.organizationsPicker}>Choose Organization</Link>
                      <Link to={paths.organizationsCreate}>Create Organization</Link>
                    </>
                  }
                >
                  You are not working in an organization yet. Choose one you belong to, or create a new one.
                </Banner>
              )}
              {organization && ssoRequired ? <SsoRequiredBanner organization={organization} /> : null}
              {selectOrganization.isError ? (
                <Banner variant="error">{selectOrganization.error.message}</Banner>
              ) : null}
            </div>
            <div className="shell-content">{children ?? <Outlet context={data} />}</div>
          </main>
        </div>
      </EnvironmentNamesProvider>
    </ActorProvider>
  );
}
