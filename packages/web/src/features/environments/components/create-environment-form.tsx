import { createEnvironmentSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

const formSchema = createEnvironmentSchema.pick({ handle: true, stack_id: true });

export interface StackOption {
  id: string;
  label: string;
  dedicated: boolean;
}

export interface CreateEnvironmentValues {
  handle: string;
  stackId: string | undefined;
}

export interface CreateEnvironmentFormProps {
  stacks: readonly StackOption[];
  defaultStackId: string | null;
  onSubmit: (values: CreateEnvironmentValues) => Promise<unknown>;
  /** Why the caller may not create an environment (action environment.create), or null. */
  denial?: string | null;
}

/** spec 3 §2 "Name your Environment": a handle and a stack picker. */
export function CreateEnvironmentForm({
  stacks,
  defaultStackId,
  onSubmit,
  denial = null,
}: CreateEnvironmentFormProps) {
  // spec 3 §8: a refusal shows the server's message (a 422 names the broken rule).
  const form = useSchemaForm(formSchema, {
    defaultValues: { handle: '', stack_id: defaultStackId ?? undefined },
    blocked: denial !== null,
    onSubmit: (values) => onSubmit({ handle: values.handle, stackId: values.stack_id }),
  });
  const {
    register,
    field,
    formState: { errors },
  } = form;

  const dedicated = stacks.filter((stack) => stack.dedicated);
  const shared = stacks.filter((stack) => !stack.dedicated);

  return (
    <Form form={form}>
      <TextField
        label="Handle"
        autoComplete="off"
        spellCheck={false}
        placeholder="my-environment"
        hint="Lowercase letters, digits, periods, hyphens and underscores."
        {...field('handle')}
      />
      <FormField
        label="Stack"
        hint="Environments on a dedicated stack are production environments."
        error={errors.stack_id?.message}
      >
        {(control) => (
          <select className="select" {...control} {...register('stack_id')}>
            {dedicated.length ? (
              <optgroup label="Dedicated stacks">
                {dedicated.map((stack) => (
                  <option key={stack.id} value={stack.id}>
                    {stack.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {shared.length ? (
              <optgroup label="Shared stacks">
                {shared.map((stack) => (
                  <option key={stack.id} value={stack.id}>
                    {stack.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        )}
      </FormField>
      <SubmitRow denial={denial} size="lg" block>
        Create Environment
      </SubmitRow>
    </Form>
  );
}
