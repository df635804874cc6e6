import {
  type OrganizationSettingsInput,
  type OrganizationSettingsValues,
  organizationSettingsSchema,
  US_STATES,
} from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';
import './organizations.css';

export function organizationSettingsValues(organization: Organization): OrganizationSettingsInput {
  return { name: organization.name, ...organization.contacts };
}

export interface OrganizationSettingsFormProps {
  organization: Organization;
  /** Why the caller may not change the settings (spec 1 §6: Account Owners only), or null. */
  denial: string | null;
  onSubmit: (values: OrganizationSettingsValues) => Promise<unknown>;
}

/**
 * spec 1 §3 organization contacts with spec 1 §5's rules. Save is enabled only once something changed;
 * without the Account Owner role the fields are read-only and Save carries the reason as its tooltip.
 */
export function OrganizationSettingsForm({ organization, denial, onSubmit }: OrganizationSettingsFormProps) {
  const form = useSchemaForm(organizationSettingsSchema, {
    defaultValues: organizationSettingsValues(organization),
    blocked: denial !== null,
    onSubmit: async (values) => {
      await onSubmit(values);
      // The saved values become the new baseline, so Save waits for the next change.
      form.reset(values);
    },
  });
  const {
    field,
    formState: { isDirty },
  } = form;

  const readOnly = denial !== null;
  const stored = organization.contacts.state;
  // A stored state outside the list (written by another client) stays selectable rather than lost.
  const states =
    stored && !US_STATES.some((state) => state.code === stored)
      ? [...US_STATES, { code: stored, name: stored }]
      : US_STATES;

  return (
    <Form form={form} aria-label="Organization Settings">
      <fieldset className="form organization-settings-fields" disabled={readOnly}>
        <TextField label="Name" autoComplete="organization" {...field('name')} />
        <TextField label="Address" autoComplete="street-address" {...field('address')} />
        <TextField label="City" autoComplete="address-level2" {...field('city')} />
        <SelectField
          label="State"
          placeholder="Select a state"
          options={states.map((state) => ({ value: state.code, label: state.name }))}
          {...field('state')}
        />
        <TextField label="Zip" autoComplete="postal-code" {...field('zip')} />
        <TextField label="Primary Phone" type="tel" autoComplete="tel" {...field('primaryPhone')} />
        <TextField label="Emergency Phone" type="tel" {...field('emergencyPhone')} />
        <TextField
          label="Security Alert Email"
          type="email"
          spellCheck={false}
          {...field('securityAlertEmail')}
        />
        <TextField label="Ops Alert Email" type="email" spellCheck={false} {...field('opsAlertEmail')} />
      </fieldset>
      <SubmitRow denial={denial} disabled={!isDirty}>
        Save Changes
      </SubmitRow>
    </Form>
  );
}
