import { emptyStateMessages, whitelistMembershipCreateInput } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { messageOf } from '../../../lib/error-message.ts';

/** A member on the list, named for the table. */
export interface SsoException {
  id: string;
  name: string;
  email: string;
}

/** A member who may be added: not an Account Owner (exempt already) and not on the list. */
export interface SsoExceptionCandidate {
  userId: string;
  label: string;
}

export interface SsoExceptionListProps {
  exceptions: readonly SsoException[];
  candidates: readonly SsoExceptionCandidate[];
  /** Why the caller may not change the list (spec 1 §6: the Account Owner's), or null. */
  denial: string | null;
  onAdd: (userId: string) => Promise<unknown>;
  onRemove: (exception: SsoException) => Promise<unknown>;
}

/**
 * spec 1 §6 "SSO enforcement: owners and users on the bypass allowlist are exempt": the SSO exception
 * list, with a chooser of the members who may be added (spec 1 §5 "SSO bypass: a user must be chosen").
 */
export function SsoExceptionList({ exceptions, candidates, denial, onAdd, onRemove }: SsoExceptionListProps) {
  const [removeFailure, setRemoveFailure] = useState<string | null>(null);
  const form = useSchemaForm(whitelistMembershipCreateInput, {
    defaultValues: { user_id: '' },
    blocked: denial !== null,
    onSubmit: async ({ user_id: userId }) => {
      await onAdd(userId);
      form.reset({ user_id: '' });
    },
  });

  return (
    <section className="card card-body form-card" aria-labelledby="sso-exceptions-title">
      <h2 className="section-title" id="sso-exceptions-title">
        SSO exception list
      </h2>
      <p>These members may keep logging in with their password while SSO is enforced.</p>
      {removeFailure ? <Banner variant="error">{removeFailure}</Banner> : null}
      {exceptions.length === 0 ? (
        <EmptyState title={emptyStateMessages.noSsoExceptions} />
      ) : (
        <StaticTable
          caption="SSO exception list"
          columns={['Name', 'Email', { label: 'Actions', hidden: true, className: 'numeric' }]}
        >
          {exceptions.map((exception) => (
            <tr key={exception.id}>
              <td>{exception.name}</td>
              <td>{exception.email}</td>
              <td className="numeric">
                <ConfirmButton
                  label={`Remove ${exception.name} from the SSO exception list`}
                  confirmLabel={`Confirm remove ${exception.name}`}
                  denial={denial}
                  onConfirm={async () => {
                    setRemoveFailure(null);
                    try {
                      await onRemove(exception);
                    } catch (error) {
                      setRemoveFailure(messageOf(error));
                      throw error;
                    }
                  }}
                  focusAfter={() => document.getElementById('sso-exceptions-title')}
                >
                  Remove
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </StaticTable>
      )}
      <Form form={form} aria-label="Add to the SSO exception list">
        <SelectField
          label="Member"
          placeholder="Choose a member"
          options={candidates.map((candidate) => ({ value: candidate.userId, label: candidate.label }))}
          {...form.field('user_id')}
        />
        <SubmitRow denial={denial}>Add</SubmitRow>
      </Form>
    </section>
  );
}
