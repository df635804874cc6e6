import { type ScimConfigurationForm, scimConfigurationForm } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';

export interface DefaultRoleOption {
  id: string;
  name: string;
}

export interface DefaultRoleFormProps {
  /** The roles a provisioned user may be given: the organization's, those provisioning manages left out. */
  roles: readonly DefaultRoleOption[];
  defaultRoleId?: string;
  /** Why the caller may not set provisioning up (spec 1 §6), or null. */
  denial: string | null;
  submitLabel: string;
  onSubmit: (values: ScimConfigurationForm) => Promise<unknown>;
}

/** spec 1 §5 "Default role for SCIM must be chosen ('must select Default Role')": the create and edit forms. */
export function DefaultRoleForm({
  roles,
  defaultRoleId = '',
  denial,
  submitLabel,
  onSubmit,
}: DefaultRoleFormProps) {
  const form = useSchemaForm(scimConfigurationForm, {
    defaultValues: { default_role_id: defaultRoleId },
    blocked: denial !== null,
    onSubmit,
  });
  return (
    <Form form={form} aria-label="Provisioning settings">
      <SelectField
        label="Default Role"
        hint="The role every user your identity provider provisions gets. Groups it pushes become roles of their own."
        placeholder="Select a role"
        disabled={denial !== null}
        options={roles.map((role) => ({ value: role.id, label: role.name }))}
        {...form.field('default_role_id')}
      />
      <SubmitRow denial={denial}>{submitLabel}</SubmitRow>
    </Form>
  );
}
