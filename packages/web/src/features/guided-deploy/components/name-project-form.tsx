import { handleSchema, projectMessages } from '@berth/core';
import { Link } from 'react-router';
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../lib/paths.ts';

export interface ProjectValues {
  stackId: string;
  name: string;
}

/**
 * spec 3 §4 Project creation's rules: the stack, then the name (the spec's words), then the name as a
 * handle (spec 2 §5).
 */
export function projectProblems(values: ProjectValues): Partial<Record<keyof ProjectValues, string>> {
  if (values.stackId.trim() === '') return { stackId: projectMessages.stackEmpty };
  if (values.name.trim() === '') return { name: projectMessages.nameEmpty };
  const handle = handleSchema.safeParse(values.name);
  return handle.success ? {} : { name: handle.error.issues[0]?.message ?? projectMessages.nameEmpty };
}

export interface NameProjectFormProps {
  stacks: readonly { id: string; label: string }[];
  defaultStackId: string;
  /** Why the caller may not create an environment (action environment.create), or null. */
  denial: string | null;
  onSubmit: (values: ProjectValues) => Promise<unknown>;
}

/**
 * spec 3 "Name your Environment" as the guided deploy's first step when no environment is chosen: a stack
 * picker, a link to request a dedicated stack, and the name the environment and its first app take.
 */
export function NameProjectForm({ stacks, defaultStackId, denial, onSubmit }: NameProjectFormProps) {
  const form = useRulesForm(
    resolverOf<ProjectValues>(projectProblems, (values) => ({ ...values, name: values.name.trim() })),
    {
      defaultValues: { stackId: defaultStackId, name: '' },
      blocked: denial !== null,
      onSubmit,
    },
  );
  return (
    <Form form={form} aria-label="Name your Environment">
      <SelectField
        label="Stack"
        options={stacks.map((stack) => ({ value: stack.id, label: stack.label }))}
        placeholder="Select a stack"
        hint={
          <>
            The environment is created on this stack. Need one of your own?{' '}
            <Link to={paths.createStack}>Request a dedicated stack</Link>.
          </>
        }
        {...form.field('stackId')}
      />
      <TextField
        label="Name"
        autoComplete="off"
        spellCheck={false}
        placeholder="my-app"
        hint="The environment and its first app take this name: lowercase letters, digits, periods, hyphens and underscores."
        {...form.field('name')}
      />
      <SubmitRow size="lg" block denial={denial}>
        Create App
      </SubmitRow>
    </Form>
  );
}
