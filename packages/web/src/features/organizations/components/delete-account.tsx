import { accountDeletionAllowed } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { type SupportRequest, SupportRequestConfirmation } from '../../../components/ui/support-request.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';

export interface DeleteAccountProps {
  organization: Organization;
  requestedBy: { name: string; email: string };
  /**
   * The names of the organization's stacks with a billable cost, or null while the costs are not known
   * (the request then waits: it cannot tell yet whether the rule allows it).
   */
  billableStacks: readonly string[] | null;
  /** Why the caller may not ask (spec 1 §6: Account Owners only), or null. */
  denial: string | null;
}

export function accountDeletionRequest(
  organization: Organization,
  requestedBy: { name: string; email: string },
): SupportRequest {
  return {
    subject: `Account deletion request: ${organization.name}`,
    body: [
      `Please delete the account of the organization ${organization.name} (id ${organization.id}).`,
      `Requested by: ${requestedBy.name} <${requestedBy.email}>`,
      'The organization has no stack with a billable cost.',
    ].join('\n'),
  };
}

/**
 * spec 1 §4: "Account deletion is a request sent to support. It is enabled only when the typed name
 * matches the organization name and no stack has billable cost." Confirming shows the request and offers
 * it as a prefilled email (the shared support-request pattern): nothing is deleted or sent by Berth.
 */
export function DeleteAccount({ organization, requestedBy, billableStacks, denial }: DeleteAccountProps) {
  const [requesting, setRequesting] = useState(false);

  if (requesting) {
    return (
      <SupportRequestConfirmation
        title="Account deletion request"
        request={accountDeletionRequest(organization, requestedBy)}
        onCancel={() => setRequesting(false)}
      />
    );
  }

  const billable = billableStacks ?? [];
  return (
    <TypedConfirmation
      title="Delete Account"
      actionLabel="Request Account Deletion"
      description={
        <>
          Deleting the account removes the organization {organization.name} and everything in it. It is a
          request to support, not an immediate deletion. Type the organization's name to confirm.
        </>
      }
      notices={
        billableStacks === null ? (
          <Banner variant="info">Checking the organization's stacks for billable costs…</Banner>
        ) : billable.length > 0 ? (
          <Banner variant="warning" title="Stacks with billable cost">
            The account cannot be deleted while a stack has billable cost: {billable.join(', ')}. Deprovision
            them first.
          </Banner>
        ) : null
      }
      expected={organization.name}
      matches={(typed) =>
        accountDeletionAllowed({
          typedName: typed,
          organizationName: organization.name,
          billableStacks: billable.length,
        })
      }
      fieldLabel="Organization name"
      denial={denial}
      blocked={billableStacks === null || billable.length > 0}
      onConfirm={async () => setRequesting(true)}
    />
  );
}
