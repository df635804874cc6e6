import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useInvitation } from '../../../features/invitations/api/use-invitation.ts';
import { createOrganization } from '../../../features/organizations/api/use-create-organization.ts';
import { CreateOrganizationForm } from '../../../features/organizations/components/create-organization-form.tsx';
import { createToken } from '../../../features/session/api/create-token.ts';
import { AlreadyLoggedIn } from '../../../features/session/components/already-logged-in.tsx';
import { createUser } from '../../../features/users/api/create-user.ts';
import { userQuery } from '../../../features/users/api/use-user.ts';
import {
  type SignupCredentials,
  SignupCredentialsForm,
} from '../../../features/users/components/signup-credentials-form.tsx';
import {
  type SignupProfile,
  SignupProfileForm,
} from '../../../features/users/components/signup-profile-form.tsx';
import { readPersisted, removePersisted, writePersisted } from '../../../lib/persisted-state.ts';
import { sessionStore, useSession } from '../../../lib/session-store.ts';
import { BrandMark } from '../../brand.tsx';
import '../../layouts/auth-layout.css';
import { claimOf, paths, safeInternalPath, signupInvitationOf } from '../../../lib/paths.ts';

type Step = 1 | 2 | 3;

const STEPS: Record<Step, { label: string; title: string; subtitle: string }> = {
  1: {
    label: 'Your details',
    title: 'Create your account',
    subtitle: 'Tell us who you are. It takes a minute.',
  },
  2: {
    label: 'Login',
    title: 'Choose your login',
    subtitle: 'You will use this email and password to log in.',
  },
  3: {
    label: 'Organization',
    title: 'Create Organization',
    subtitle: 'Your organization holds your team, stacks and environments.',
  },
};

// Only what this installation does: no managed databases, 2FA or single sign-on yet.
const POINTS: { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Deploy by git ref',
    text: 'Deploy containerised apps into environments on your stacks and follow every operation with its logs.',
    icon: <path d="M12 19V5M5 12l7-7 7 7" />,
  },
  {
    title: 'Scale and configure',
    text: 'Scale services, set environment variables and add endpoints with managed or custom certificates.',
    icon: <path d="M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1 14h6M9 8h6M17 16h6" />,
  },
  {
    title: 'Access you can audit',
    text: 'Roles with per-environment permissions, invitations by email and an activity log of every change.',
    icon: <path d="M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6z" />,
  },
];

function MarketingPanel() {
  return (
    <aside className="signup-marketing" aria-label="Why Berth">
      <BrandMark />
      <div className="stack">
        <h2>The platform your team deploys on, on infrastructure you own.</h2>
        <p>Berth runs your apps on shared or dedicated stacks, with the guard rails built in.</p>
      </div>
      <ul className="signup-points">
        {POINTS.map((point) => (
          <li key={point.title}>
            <svg
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              {point.icon}
            </svg>
            <span>
              <strong>{point.title}</strong>
              {point.text}
            </span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

// Issue 41: an invitee joins the inviting organization, so their wizard has no Organization step.
const PLAIN_STEPS: readonly Step[] = [1, 2, 3];
const INVITED_STEPS: readonly Step[] = [1, 2];

function WizardSteps({ step, steps }: { step: Step; steps: readonly Step[] }) {
  return (
    <ol className="wizard-steps" aria-label="Sign-up progress">
      {steps.map((item) => (
        <li
          key={item}
          className="wizard-step"
          data-state={item < step ? 'done' : item === step ? 'current' : 'next'}
          aria-current={item === step ? 'step' : undefined}
        >
          Step {item}: {STEPS[item].label}
        </li>
      ))}
    </ol>
  );
}

/**
 * spec 1 §2 and §4 "Sign-up": a 3-step wizard. Step 2 creates the user and logs in; step 3 creates the
 * organization, takes an elevated token and routes by verification. From an invitation (issue 41) there
 * is no Company and no step 3: no company means no organization (spec 1 §4), and the new account goes on
 * to the invitation's accept page to join the inviting one. The marketing-form submission is skipped: no
 * marketing service is configured for Berth.
 */
function SignupRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { phase } = useSession();
  const [step, setStep] = useState<Step>(1);
  const [profile, setProfile] = useState<SignupProfile | null>(null);
  const [email, setEmail] = useState('');
  // Held in memory only until the elevated token is taken at the end of step 3.
  const password = useRef('');
  const [started, setStarted] = useState(false);

  // spec 1 §4 Sign-up "with an invitation": only the claim page's explicit hand-over counts. A remembered
  // page is not an invitation: a link abandoned long ago must not turn a plain sign-up into one.
  const [params] = useSearchParams();
  const [claim] = useState(() => signupInvitationOf(params));
  // The invited address fills the email of step 2 (the invitation answers without a token).
  const invitation = useInvitation(claim?.inviteId ?? '');
  const invitedEmail = invitation.data?.email ?? '';

  const createAccount = async (credentials: SignupCredentials) => {
    if (!profile) return;
    setStarted(true);
    try {
      // The invitation's code proves the address (contract §5.2 challengeToken).
      await createUser({ ...profile, ...credentials, challengeToken: claim?.code });
      sessionStore.signIn(await createToken(credentials, 'session'));
    } catch (error) {
      if (sessionStore.getState().phase !== 'authenticated') setStarted(false);
      throw error;
    }
    password.current = credentials.password;
    setEmail(credentials.email);
    // Step 3: the organization is created only if a company was given (never from an invitation).
    if (claim) {
      await complete(credentials.email);
      return;
    }
    setStep(3);
  };

  /** Step 4 and 5: an elevated token, fresh data, then on to the invitation, the saved page or verify. */
  const complete = async (accountEmail: string) => {
    try {
      sessionStore.setElevatedToken(
        await createToken({ email: accountEmail, password: password.current }, 'elevated'),
      );
    } catch {
      // The account is ready; a page that needs elevation will ask for the password.
    }
    password.current = '';
    await queryClient.invalidateQueries();
    if (claim) {
      removePersisted('redirectPath');
      navigate(claim.path, { replace: true });
      return;
    }
    // A remembered claim page belongs to an invitation this sign-up was not started from: forget it, so
    // neither this step nor the verification after it sends the new account there.
    const remembered = safeInternalPath(readPersisted('redirectPath'));
    if (remembered && claimOf(remembered)) removePersisted('redirectPath');
    const userId = sessionStore.getState().accessToken?.userId ?? '';
    const user = await queryClient.fetchQuery({ ...userQuery(userId), staleTime: 0 });
    if (!user.verified) {
      navigate(paths.verify, { replace: true });
      return;
    }
    removePersisted('redirectPath');
    navigate(remembered && !claimOf(remembered) ? remembered : paths.root, { replace: true });
  };

  const finish = async (organizationName: string) => {
    await createOrganization(organizationName);
    await complete(email);
  };

  const current = STEPS[step];
  const alreadyLoggedIn = phase === 'authenticated' && !started;
  const joining = invitation.data?.organizationName;
  const subtitle =
    claim && step === 1
      ? joining
        ? `You are joining ${joining} by invitation. Tell us who you are.`
        : 'You are joining an organization by invitation. Tell us who you are.'
      : current.subtitle;

  return (
    <div className="signup-page">
      <MarketingPanel />
      <main className="signup-main">
        <div className="signup-form-column">
          {alreadyLoggedIn ? null : <WizardSteps step={step} steps={claim ? INVITED_STEPS : PLAIN_STEPS} />}
          <header className="auth-header">
            <h1 className="auth-title">{current.title}</h1>
            <p className="auth-subtitle">{subtitle}</p>
          </header>
          {alreadyLoggedIn ? (
            <AlreadyLoggedIn continueTo={paths.root} logoutTo={paths.logout} />
          ) : step === 1 ? (
            <SignupProfileForm
              defaultValues={profile ?? undefined}
              fromInvitation={claim !== null}
              onNext={(next) => {
                setProfile(next);
                setStep(2);
              }}
            />
          ) : step === 2 ? (
            <SignupCredentialsForm
              // Remounted when the invitation arrives after the step opened, so its address still shows.
              key={invitedEmail}
              defaultEmail={invitedEmail || email}
              emailLocked={invitedEmail !== ''}
              onBack={() => setStep(1)}
              onSubmit={createAccount}
            />
          ) : (
            <CreateOrganizationForm defaultName={profile?.company ?? ''} onSubmit={finish} />
          )}
          {step < 3 ? (
            <p className="auth-footer">
              <span>
                Already have an account?{' '}
                <Link
                  to={paths.login}
                  // From an invitation, logging in instead still comes back to it (spec 1 §2 remembered page).
                  onClick={() => (claim ? writePersisted('redirectPath', claim.path) : undefined)}
                >
                  Log in
                </Link>
              </span>
            </p>
          ) : null}
        </div>
      </main>
    </div>
  );
}

export { SignupRoute as Component };
