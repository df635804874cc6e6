import {
  type OrganizationSettingsInput,
  type OrganizationSettingsValues,
  organizationSettingsSchema,
  US_STATES,
} from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
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
    register,
    formState: { errors, isDirty },
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
        <TextField
          label="Name"
          autoComplete="organization"
          error={errors.name?.message}
          {...register('name')}
        />
        <TextField
          label="Address"
          autoComplete="street-address"
          error={errors.address?.message}
          {...register('address')}
        />
        <TextField
          label="City"
          autoComplete="address-level2"
          error={errors.city?.message}
          {...register('city')}
        />
        <FormField label="State" error={errors.state?.message}>
          {(control) => (
            <select className="select" {...control} {...register('state')}>
              <option value="">Select a state</option>
              {states.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <TextField label="Zip" autoComplete="postal-code" error={errors.zip?.message} {...register('zip')} />
        <TextField
          label="Primary Phone"
          type="tel"
          autoComplete="tel"
          error={errors.primaryPhone?.message}
          {...register('primaryPhone')}
        />
        <TextField
          label="Emergency Phone"
          type="tel"
          error={errors.emergencyPhone?.message}
          {...register('emergencyPhone')}
        />
        <TextField
          label="Security Alert Email"
          type="email"
          spellCheck={false}
          error={errors.securityAlertEmail?.message}
          {...register('securityAlertEmail')}
        />
        <TextField
          label="Ops Alert Email"
          type="email"
          spellCheck={false}
          error={errors.opsAlertEmail?.message}
          {...register('opsAlertEmail')}
        />
      </fieldset>
      <SubmitRow denial={denial} disabled={!isDirty}>
        Save Changes
      </SubmitRow>
    </Form>
  );
}
