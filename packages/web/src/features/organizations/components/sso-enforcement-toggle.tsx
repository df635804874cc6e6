import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface SsoEnforcementToggleProps {
  organizationName: string;
  enforced: boolean;
  /** Why the caller may not change it (spec 1 §6: the Account Owner's), or null. */
  denial: string | null;
  /** Turns enforcement on or off; a rejection's message is shown. */
  onChange: (enforced: boolean) => Promise<unknown>;
}

/**
 * spec 1 §4 "enforcement is toggled Enable or Disable": with SSO enforced, members reach the organization
 * only through its identity provider; Account Owners and the SSO exception list keep their passwords
 * (spec 1 §6). Shown once SSO is configured: the server refuses enforcement before.
 */
export function SsoEnforcementToggle({
  organizationName,
  enforced,
  denial,
  onChange,
}: SsoEnforcementToggleProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = async () => {
    setPending(true);
    setFailure(null);
    try {
      await onChange(!enforced);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card card-body form-card" aria-labelledby="sso-enforcement-title">
      <h2 className="section-title" id="sso-enforcement-title">
        Enforce SSO
      </h2>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <p>
        {enforced
          ? `SSO is enforced: members of ${organizationName} must log in through your identity provider.`
          : `SSO is not enforced: members of ${organizationName} may also log in with their password.`}{' '}
        Account Owners and the users on the SSO exception list can always log in with their password.
      </p>
      <div className="submit-row">
        <ScopedButton
          denial={denial}
          variant={enforced ? 'secondary' : 'primary'}
          aria-label={enforced ? 'Disable SSO enforcement' : 'Enable SSO enforcement'}
          loading={pending}
          onClick={() => void toggle()}
        >
          {enforced ? 'Disable' : 'Enable'}
        </ScopedButton>
      </div>
    </section>
  );
}
