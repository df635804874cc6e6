import { hasFullVisibilityAnywhere, isOrganizationToken, ssoEnforcementMessages } from '@berth/core';
import { type ReactNode, useMemo } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { Banner } from '../../components/ui/banner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FullPageSpinner } from '../../components/ui/spinner.tsx';
import { useBillingDetail } from '../../features/billing/api/use-billing-detail.ts';
import { PaymentMethodGuard, TrialNotice } from '../../features/billing/components/payment-guard.tsx';
import { ImpersonationBanner } from '../../features/impersonation/components/impersonation-banner.tsx';
import { useResourceVisits } from '../../features/search/visits.ts';
import { useSelectOrganization } from '../../features/users/api/use-select-organization.ts';
import { ActorProvider } from '../../lib/actor.tsx';
import { getRuntimeConfig } from '../../lib/config.ts';
import { EnvironmentNamesProvider } from '../../lib/environment-names.tsx';
import { paths } from '../../lib/paths.ts';
import { useSession } from '../../lib/session-store.ts';
import { useTheme } from '../../lib/theme.ts';
import { denialFor } from '../../lib/use-action-denial.ts';
import { canImpersonate } from '../../resources/users/user.hal.ts';
import { isHomeEnabled } from '../feature-flags.ts';
import { signInAgainTo, ssoLoginUrl } from '../sso.ts';
import { useCommandPalette } from './command-palette-host.tsx';
import { paletteActions } from './palette-actions.ts';
import { Sidebar } from './sidebar.tsx';
import { StartupLists } from './startup-lists.tsx';
import { type ConsoleData, useConsole } from './use-console.ts';
import './shell.css';

/**
 * spec 3 §2 "An organization that enforces SSO shows an error asking the user to log in with SSO": in
 * place of the page, whose data this session may not read. An organization this session may not use
 * for another reason (an SSO session of another organization) asks for a new login instead.
 */
function SignInAgainBanner({ organization }: { organization: NonNullable<ConsoleData['organization']> }) {
  if (!organization.ssoEnforced) {
    return (
      <Banner variant="error" title="Log in again" actions={<Link to={paths.logout}>Log out</Link>}>
        {ssoEnforcementMessages.otherOrganization(organization.name)}
      </Banner>
    );
  }
  return (
    <Banner
      variant="error"
      title={ssoEnforcementMessages.requiredTitle}
      actions={<a href={ssoLoginUrl(organization.id)}>Log in with SSO</a>}
    >
      {ssoEnforcementMessages.required(organization.name)}
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
  const navigate = useNavigate();
  const { docsUrl } = getRuntimeConfig();
  const environmentName = useMemo(() => {
    const handles = new Map(data.environments.map((environment) => [environment.id, environment.handle]));
    return (environmentId: string) => handles.get(environmentId);
  }, [data.environments]);
  // contract §7: the billing detail (step 4) is asked for with the required data, and the payment-method
  // guard acts on it, so no page shows before it has answered (a page would flash before the redirect).
  // Its failure leaves the page to show.
  const usable = data.organization && !data.organization.reauthRequired ? data.organization : null;
  const billingDetail = useBillingDetail(usable?.billingDetailId ?? null);
  // Global search (issue 38): the ⌘K palette on every page (its actions follow the side navigation's
  // entries), and the visits Recently Viewed lists.
  const homeForPalette = isHomeEnabled(data.organization?.id ?? null);
  const fullVisibilityForPalette = hasFullVisibilityAnywhere(data.actor);
  const palette = useCommandPalette(
    useMemo(
      () =>
        paletteActions({
          homeEnabled: homeForPalette,
          fullVisibility: fullVisibilityForPalette,
          // The flows it starts are disabled by the rules the other surfaces' buttons follow.
          denialOf: (action, where) => denialFor(data.actor, action, where),
          environmentIds: data.environments.map((environment) => environment.id),
        }),
      [homeForPalette, fullVisibilityForPalette, data.actor, data.environments],
    ),
  );
  useResourceVisits();

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
  if (data.required.status !== 'success' || !data.user || billingDetail.isLoading)
    return <FullPageSpinner label="Loading your console" />;

  const { organization, organizations } = data;
  // The server says which organizations this session may not use (SSO enforcement: owners and the
  // exception list exempt); the console shows one only when no other is usable (use-console).
  const signInAgain = organization?.reauthRequired ?? false;

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
            onSelectOrganization={(organizationId) => {
              const target = organizations.find((item) => item.id === organizationId);
              // spec 3 §6: choosing an organization that needs a new login goes to that login.
              if (target?.reauthRequired) signInAgainTo(target, navigate);
              else selectOrganization.mutate(organizationId);
            }}
            homeEnabled={isHomeEnabled(organization?.id ?? null)}
            fullVisibility={hasFullVisibilityAnywhere(data.actor)}
            onOpenSearch={palette.open}
            canImpersonate={canImpersonate(data.user)}
            // Ours: the CLI's way in where SSO is the way in (spec 3 leaves who sees it unsaid).
            cliSsoToken={
              isOrganizationToken(accessToken?.claims ?? null) ||
              organizations.some((item) => item.ssoEnforced)
            }
            docsUrl={docsUrl}
            theme={theme}
            onToggleTheme={toggleTheme}
          />
          {organization && !signInAgain ? <StartupLists organizationId={organization.id} /> : null}
          {palette.element}
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
              {organization && signInAgain ? <SignInAgainBanner organization={organization} /> : null}
              {organization && !signInAgain ? (
                <TrialNotice billingDetailId={organization.billingDetailId} />
              ) : null}
              {selectOrganization.isError ? (
                <Banner variant="error">{selectOrganization.error.message}</Banner>
              ) : null}
            </div>
            {signInAgain ? null : (
              <div className="shell-content">
                <PaymentMethodGuard billingDetailId={organization?.billingDetailId ?? null}>
                  {children ?? <Outlet context={data} />}
                </PaymentMethodGuard>
              </div>
            )}
          </main>
        </div>
      </EnvironmentNamesProvider>
    </ActorProvider>
  );
}
