import { ssoProvisioningForm, type SsoProvisioningForm as Values } from '@berth/core';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';

/**
 * Just-in-time provisioning (ours, issue 36): people the identity provider vouches for who are not
 * members yet become members at their first SSO login, with the role chosen here. Off, only members and
 * invited people may sign in through SSO.
 */
export function SsoProvisioningForm({
  jitEnabled,
  defaultRoleId,
  roles,
  denial,
  onSubmit,
}: {
  jitEnabled: boolean;
  defaultRoleId: string | null;
  roles: readonly { id: string; name: string }[];
  denial: string | null;
  onSubmit: (values: Values) => Promise<unknown>;
}) {
  const form = useSchemaForm(ssoProvisioningForm, {
    defaultValues: { jit_enabled: jitEnabled, default_role_id: defaultRoleId ?? '' },
    blocked: denial !== null,
    onSubmit,
  });
  return (
    <Form form={form} title="Just-in-time provisioning" aria-label="Just-in-time provisioning">
      <CheckboxField
        label="Add people your identity provider signs in who are not members yet"
        disabled={denial !== null}
        {...form.field('jit_enabled')}
      />
      <SelectField
        label="Role for new members"
        placeholder="Select a role"
        hint="New members sign in through SSO only: they have no password."
        disabled={denial !== null}
        options={roles.map((role) => ({ value: role.id, label: role.name }))}
        {...form.field('default_role_id')}
      />
      <SubmitRow denial={denial}>Save provisioning</SubmitRow>
    </Form>
  );
}
