import { requiredMessage } from '@berth/core';
import { useId, useState } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { PlansLink } from '../../../components/ui/failure-banner.tsx';
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/form.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { PasswordRules } from '../../../components/ui/password-rules.tsx';
import { ProfileSizeFields } from '../../../components/ui/profile-size-fields.tsx';
import { Form as BareForm } from '../../../components/ui/rules-form.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { GuideSection, Source, Specimen } from './guide-section.tsx';
import { PLAN_LIMIT_ERROR, SAMPLE_DENIAL, staticForm } from './samples.ts';

const ENVIRONMENTS = [
  { value: 'staging', label: 'staging' },
  { value: 'production', label: 'production' },
];

const HANDLE_MAX = 64;

interface SampleValues {
  handle: string;
  environment: string;
  notes: string;
  understood: boolean;
}

/** The sample form's rules, as core states a form's rules: each field's problem, or none. */
function sampleProblems(values: SampleValues): Partial<Record<keyof SampleValues, string>> {
  const handle = values.handle.trim();
  return {
    handle: !handle
      ? requiredMessage('Handle')
      : handle.length > HANDLE_MAX
        ? `Handle must be at most ${HANDLE_MAX} characters`
        : undefined,
    environment: values.environment ? undefined : 'Choose an environment',
    understood: values.understood ? undefined : 'Tick the box to go on',
  };
}

/** A working form: its rules run on submit, and it saves nothing. */
function SampleForm() {
  const form = useRulesForm(resolverOf<SampleValues>(sampleProblems), {
    defaultValues: { handle: '', environment: '', notes: '', understood: false },
    onSubmit: () => new Promise((resolve) => setTimeout(resolve, 800)),
    successMessage: (values) => `Saved ${values.handle.trim()} (the style guide keeps nothing).`,
  });
  return (
    <Form form={form} title="Create an app" aria-label="Create an app" className="form form-card">
      <TextField label="Handle" hint="Lowercase letters, digits and dashes." {...form.field('handle')} />
      <SelectField
        label="Environment"
        placeholder="Select an environment"
        options={ENVIRONMENTS}
        {...form.field('environment')}
      />
      <FormField label="Notes" hint="Any control of your own goes in a FormField.">
        {(control) => (
          <textarea className="input guide-textarea" rows={3} {...control} {...form.register('notes')} />
        )}
      </FormField>
      <CheckboxField label="I understand this app is a sample" {...form.field('understood')} />
      <SubmitRow onCancel={() => form.reset()} cancelLabel="Reset">
        Create App
      </SubmitRow>
    </Form>
  );
}

function ScopedCheckboxes() {
  const [checked, setChecked] = useState(true);
  const id = useId();
  return (
    <div className="guide-column">
      {(
        [
          ['Allowed', null, false],
          ['Denied', SAMPLE_DENIAL, false],
          ['Locked (no reason to tell)', null, true],
        ] as const
      ).map(([label, denial, locked], index) => (
        <span key={label} className="checkbox-field">
          <ScopedCheckbox
            id={`${id}-${index}`}
            checked={checked}
            onChange={() => setChecked((value) => !value)}
            denial={denial}
            locked={locked}
          />
          <label htmlFor={`${id}-${index}`}>{label}</label>
        </span>
      ))}
    </div>
  );
}

function ScaleFields() {
  const id = useId();
  const [profile, setProfile] = useState('m5');
  const [sizeMb, setSizeMb] = useState(1024);
  return (
    <ProfileSizeFields
      id={id}
      profiles={[
        { instanceClass: 'm5', label: 'General Purpose (M)' },
        { instanceClass: 'c5', label: 'CPU Optimized (C)' },
      ]}
      profile={profile}
      onProfileChange={setProfile}
      sizes={[512, 1024, 2048]}
      sizeMb={sizeMb}
      onSizeChange={setSizeMb}
      formatSize={(mb) => (mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`)}
      share={sizeMb / 4096}
    />
  );
}

export function FormsSection() {
  const id = useId();
  const radioError = `${id}-traffic-error`;
  return (
    <GuideSection
      id="forms"
      source={
        <>
          <Source path="components/ui/form.tsx" /> (useSchemaForm with a core schema, or useRulesForm with
          core's rules as functions; Form and SubmitRow); fields from{' '}
          <Source path="components/ui/text-field.tsx" />, <Source path="components/ui/select-field.tsx" />,{' '}
          <Source path="components/ui/checkbox-field.tsx" /> and{' '}
          <Source path="components/ui/form-field.tsx" />. The sign-in forms use{' '}
          <Source path="components/ui/rules-form.tsx" /> itself, so the login page loads no schema library.
        </>
      }
    >
      <Specimen label="A working form: submit it empty to see its rules" wide>
        <SampleForm />
      </Specimen>
      <Specimen label="TextField">
        <TextField label="Default" placeholder="A placeholder" />
      </Specimen>
      <Specimen label="TextField, hover" preview="hover">
        <TextField label="Hover" defaultValue="web" />
      </Specimen>
      <Specimen label="TextField, focus" preview="focus">
        <TextField label="Focus" defaultValue="web" />
      </Specimen>
      <Specimen label="TextField with a hint">
        <TextField label="With a hint" hint="Shown under the field, read with it." />
      </Specimen>
      <Specimen label="TextField with an error">
        <TextField label="With an error" defaultValue="Web App" error="Handle must be lowercase" />
      </Specimen>
      <Specimen label="TextField, disabled">
        <TextField label="Disabled" defaultValue="web" disabled />
      </Specimen>
      <Specimen label="TextField, read-only">
        <TextField label="Read-only" defaultValue="git@example.com:web.git" readOnly />
      </Specimen>
      <Specimen label="SelectField with a placeholder">
        <SelectField label="Environment" placeholder="Select an environment" options={ENVIRONMENTS} />
      </Specimen>
      <Specimen label="SelectField with an error">
        <SelectField
          label="With an error"
          placeholder="Select an environment"
          options={ENVIRONMENTS}
          error="Choose an environment"
        />
      </Specimen>
      <Specimen label="SelectField, disabled">
        <SelectField label="Disabled" options={ENVIRONMENTS} disabled />
      </Specimen>
      <Specimen label="CheckboxField: default, ticked, error, disabled">
        <div className="guide-column">
          <CheckboxField label="Default" />
          <CheckboxField label="Ticked" defaultChecked />
          <CheckboxField label="With an error" error="Tick the box to go on" />
          <CheckboxField label="Disabled" disabled />
        </div>
      </Specimen>
      <Specimen label="ScopedCheckbox: allowed, denied, locked">
        <ScopedCheckboxes />
      </Specimen>
      <Specimen label="A control of your own, with FieldError">
        <fieldset className="guide-fieldset" aria-describedby={radioError}>
          <legend className="field-label">Traffic type</legend>
          <label className="checkbox-field">
            <input type="radio" name="guide-traffic" value="http" aria-invalid="true" /> HTTP
          </label>
          <label className="checkbox-field">
            <input type="radio" name="guide-traffic" value="grpc" aria-invalid="true" /> gRPC
          </label>
          <FieldError id={radioError} error="Choose a traffic type" />
        </fieldset>
      </Specimen>
      <Specimen label="PasswordRules: as typed, and after a failed submit">
        <div className="guide-column">
          <PasswordRules id={`${id}-password-typing`} password="short" showAsErrors={false} />
          <PasswordRules id={`${id}-password-errors`} password="short" showAsErrors />
        </div>
      </Specimen>
      <Specimen label="PasswordRules: met">
        <PasswordRules
          id={`${id}-password-met`}
          password="A much longer passphrase 42!"
          showAsErrors={false}
        />
      </Specimen>
      <Specimen label="ProfileSizeFields (a scale form's pickers)">
        <ScaleFields />
      </Specimen>
      <Specimen label="Form: refused for a plan's limit, with the way to Plans" wide>
        <Form
          form={{
            ...staticForm({
              failure: PLAN_LIMIT_ERROR.message,
            }),
            failureAction: <PlansLink />,
          }}
          className="form form-card"
        >
          <TextField label="Environment name" defaultValue="qa" />
          <SubmitRow>Create Environment</SubmitRow>
        </Form>
      </Specimen>
      <Specimen label="Form: submitting" wide>
        <Form form={staticForm({ pending: true })} className="form form-card">
          <TextField label="Name" defaultValue="Ada" />
          <SubmitRow onCancel={() => showToast('Cancelled.')}>Save</SubmitRow>
        </Form>
      </Specimen>
      <Specimen label="Bare Form (rules-form.tsx): saved" wide>
        <BareForm form={staticForm({ success: 'Profile saved.' })} title="Profile" className="form form-card">
          <TextField label="Name" defaultValue="Ada" />
          <SubmitRow>Save</SubmitRow>
        </BareForm>
      </Specimen>
      <Specimen label="SubmitRow, denied" wide>
        <BareForm form={staticForm({})} className="form form-card">
          <SubmitRow denial={SAMPLE_DENIAL}>Save</SubmitRow>
        </BareForm>
      </Specimen>
    </GuideSection>
  );
}
