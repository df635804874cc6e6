import {
  AWS_REGIONS,
  type DedicatedStackRequest,
  dedicatedStackRequestSchema,
  NO_AWS_REGION,
  STACK_NAME_MAX_LENGTH,
} from '@berth/core';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';

const REGION_OPTIONS = AWS_REGIONS.map((region) => ({ value: region, label: region }));

export interface CreateStackFormProps {
  defaultValues?: Partial<DedicatedStackRequest>;
  onSubmit: (request: DedicatedStackRequest) => void;
  /** Why the caller may not request one (core's `stack.request`), or null when they may. */
  denial?: string | null;
}

/** spec 2 §2 "Request Dedicated Stack": a stack name, an AWS region other than 'none', accepted terms. */
export function CreateStackForm({ defaultValues, onSubmit, denial = null }: CreateStackFormProps) {
  const form = useSchemaForm(dedicatedStackRequestSchema, {
    defaultValues: {
      name: defaultValues?.name ?? '',
      region: defaultValues?.region ?? NO_AWS_REGION,
      acceptTerms: defaultValues?.acceptTerms ?? false,
    },
    onSubmit,
    blocked: denial !== null,
  });
  const { field } = form;

  return (
    <Form form={form}>
      <TextField
        label="Stack name"
        autoComplete="off"
        spellCheck={false}
        placeholder="acme-production"
        hint={`Lowercase letters, digits and hyphens; at most ${STACK_NAME_MAX_LENGTH} characters.`}
        {...field('name')}
      />
      <SelectField
        label="AWS region"
        placeholder="Select a region"
        placeholderValue={NO_AWS_REGION}
        options={REGION_OPTIONS}
        {...field('region')}
      />
      <CheckboxField
        label="I accept that a dedicated stack is billed at its monthly rate from the day it is provisioned"
        {...field('acceptTerms')}
      />
      <SubmitRow denial={denial} size="lg" block>
        Request Dedicated Stack
      </SubmitRow>
    </Form>
  );
}
