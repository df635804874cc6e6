import { isAccountOwner, stackDeprovisionMessages, stackDeprovisionRefusal } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { SupportRequestConfirmation } from '../../../components/ui/support-request.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useActor } from '../../../lib/actor.tsx';
import type { Stack } from '../../../resources/stacks/stack.hal.ts';

export interface StackDeprovisionProps {
  stack: Stack;
  organizationName: string;
  /** The organization's environments still on this stack. */
  environmentCount: number;
}

/**
 * spec 2 §2: a stack deprovision is only a support request. It needs the Account Owner, the typed name
 * equal to the stack name and every environment gone. Shared stacks cannot be deprovisioned.
 */
export function StackDeprovision({ stack, organizationName, environmentCount }: StackDeprovisionProps) {
  const actor = useActor();
  const [typedName, setTypedName] = useState('');
  const [confirming, setConfirming] = useState(false);

  if (stack.kind === 'shared') {
    return (
      <Banner variant="info" title="Deprovision Stack">
        {stackDeprovisionMessages.shared}: they are run for every organization and cost you nothing extra.
      </Banner>
    );
  }

  const refusal = stackDeprovisionRefusal(actor, {
    kind: stack.kind,
    stackName: stack.name,
    typedName,
    environmentCount,
  });
  // A support request, not an action of the catalog: core's stack rule and its own text decide.
  const ownerDenial = isAccountOwner(actor) ? null : stackDeprovisionMessages.ownerOnly;

  if (confirming && refusal === null) {
    return (
      <SupportRequestConfirmation
        title="Deprovision Stack request"
        request={{
          subject: `Deprovision stack ${stack.name} (id ${stack.id})`,
          body: [
            `Please deprovision the dedicated stack ${stack.name} (id ${stack.id}, region ${stack.region}).`,
            `Organization: ${organizationName}`,
            'All environments on the stack have been deprovisioned.',
          ].join('\n'),
        }}
        onCancel={() => setConfirming(false)}
      />
    );
  }

  return (
    <section className="card card-body section-stack" aria-label="Deprovision Stack">
      <h2 className="section-title">Deprovision Stack</h2>
      <p>
        Deprovisioning a dedicated stack is done by support. Type the stack name to confirm, then send the
        request.
      </p>
      {environmentCount > 0 ? (
        <Banner variant="warning">
          {stackDeprovisionMessages.environmentsRemain} ({environmentCount}{' '}
          {environmentCount === 1 ? 'environment remains' : 'environments remain'}).
        </Banner>
      ) : null}
      <TextField
        label="Stack name"
        autoComplete="off"
        spellCheck={false}
        placeholder={stack.name}
        value={typedName}
        onChange={(event) => setTypedName(event.target.value)}
        disabled={ownerDenial !== null}
      />
      <div>
        <ScopedButton
          variant="danger"
          denial={ownerDenial}
          disabled={refusal !== null}
          onClick={() => setConfirming(true)}
        >
          Request Deprovision
        </ScopedButton>
      </div>
    </section>
  );
}
