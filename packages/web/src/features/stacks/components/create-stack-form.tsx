import {
  AWS_REGIONS,
  type DedicatedStackRequest,
  dedicatedStackRequestSchema,
  NO_AWS_REGION,
  STACK_NAME_MAX_LENGTH,
} from '@berth/core';
import { useId } from 'react';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';

export interface CreateStackFormProps {
  defaultValues?: Partial<DedicatedStackRequest>;
  onSubmit: (request: DedicatedStackRequest) => void;
}

/** spec 2 §2 "Request Dedicated Stack": a stack name, an AWS region other than 'none', accepted terms. */
export function CreateStackForm({ defaultValues, onSubmit }: CreateStackFormProps) {
  const termsId = useId();
  const form = useSchemaForm(dedicatedStackRequestSchema, {
    defaultValues: {
      name: defaultValues?.name ?? '',
      region: defaultValues?.region ?? NO_AWS_REGION,
      acceptTerms: defaultValues?.acceptTerms ?? false,
    },
    onSubmit,
  });
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <Form form={form}>
      <TextField
        label="Stack name"
        autoComplete="off"
        spellCheck={false}
        placeholder="acme-production"
        hint={`Lowercase letters, digits and hyphens; at most ${STACK_NAME_MAX_LENGTH} characters.`}
        error={errors.name?.message}
        {...register('name')}
      />
      <FormField label="AWS region" error={errors.region?.message}>
        {(control) => (
          <select className="select" {...control} {...register('region')}>
            <option value={NO_AWS_REGION}>Select a region</option>
            {AWS_REGIONS.map((region) => (
              <option key={region} value={region}>
                {region}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <div className="field">
        <div className="checkbox-field">
          <input
            id={termsId}
            type="checkbox"
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={errors.acceptTerms ? `${termsId}-error` : undefined}
            {...register('acceptTerms')}
          />
          <label htmlFor={termsId}>
            I accept that a dedicated stack is billed at its monthly rate from the day it is provisioned
          </label>
        </div>
        {errors.acceptTerms ? (
          <p className="field-error" id={`${termsId}-error`}>
            {errors.acceptTerms.message}
          </p>
        ) : null}
      </div>
      <SubmitRow size="lg" block>
        Request Dedicated Stack
      </SubmitRow>
    </Form>
  );
}
