import path from 'node:path';
import { countedLimitRefusal, PLAN_CATALOG, PLAN_NAMES } from '@berth/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { staticImports } from '../../../test/module-graph.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { FailureBanner } from './failure-banner.tsx';
import { Form, resolverOf, SubmitRow, useRulesForm, useSchemaForm } from './form.tsx';
import { TextField } from './text-field.tsx';

/** A create form as every create page builds one: Form shows the server's refusal. */
function CreateThing({ refusal }: { refusal: ApiError }) {
  const form = useRulesForm<{ handle: string }, { handle: string }>(
    resolverOf(() => ({})),
    {
      defaultValues: { handle: '' },
      onSubmit: async () => {
        throw refusal;
      },
    },
  );
  return (
    <Form form={form}>
      <TextField label="Handle" {...form.field('handle')} />
      <SubmitRow>Create</SubmitRow>
    </Form>
  );
}

/** A create form whose rules are a core schema, as most are. */
function CreateWithSchema({ refusal }: { refusal: ApiError }) {
  const form = useSchemaForm(z.object({ handle: z.string() }), {
    defaultValues: { handle: '' },
    onSubmit: async () => {
      throw refusal;
    },
  });
  return (
    <Form form={form}>
      <TextField label="Handle" {...form.field('handle')} />
      <SubmitRow>Create</SubmitRow>
    </Form>
  );
}

// The server's refusal, as core words it: the limit, its number and the plan that lifts it.
const LIMIT = countedLimitRefusal(
  'environments',
  PLAN_CATALOG.starter,
  PLAN_NAMES.map((name) => PLAN_CATALOG[name]),
  3,
).message;

describe('a refusal for a plan limit (issue 37)', () => {
  it('names the limit in any create form and links to Plans', async () => {
    renderWithProviders(
      <CreateThing
        refusal={new ApiError(422, LIMIT, 'plan_limit', { code: 422, error: 'plan_limit', message: LIMIT })}
      />,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Handle' }), 'web');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(LIMIT)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View plans' })).toHaveAttribute('href', '/plans');
  });

  it('names the limit and links to Plans in a form with a core schema too', async () => {
    renderWithProviders(<CreateWithSchema refusal={new ApiError(422, LIMIT, 'plan_limit', {})} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The starter plan allows 2 environments. The development plan allows 3 environments.',
    );
    expect(screen.getByRole('link', { name: 'View plans' })).toHaveAttribute('href', '/plans');
  });

  it('offers no Plans link for other failures', async () => {
    renderWithProviders(
      <CreateThing refusal={new ApiError(422, 'Handle is taken', 'unprocessable_entity', {})} />,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Handle' }), 'web');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Handle is taken')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View plans' })).not.toBeInTheDocument();
  });

  it('links to Plans from a failure banner outside a form', () => {
    renderWithProviders(<FailureBanner error={new ApiError(422, LIMIT, 'plan_limit', {})} />);
    expect(screen.getByRole('alert')).toHaveTextContent(LIMIT);
    expect(screen.getByRole('link', { name: 'View plans' })).toHaveAttribute('href', '/plans');
  });
});

describe('every form that makes or sizes what a plan limits shows that refusal', () => {
  const src = path.resolve(import.meta.dirname, '../..');
  const kit = path.join(src, 'components/ui/form.tsx');
  const banner = path.join(src, 'components/ui/failure-banner.tsx');
  const importsFrom = (form: string, module: string) =>
    staticImports(path.join(src, form))
      .filter((item) => item.file === module)
      .flatMap((item) => item.names);

  it.each([
    'features/environments/components/create-environment-form.tsx',
    'features/endpoints/components/create-endpoint-form.tsx',
    'features/endpoints/components/create-database-endpoint-form.tsx',
    'features/databases/components/create-database-form.tsx',
    'features/services/components/scale-form.tsx',
    'features/database-detail/components/database-scale-form.tsx',
    'features/sizing/components/autoscaling-form.tsx',
    'features/backups/components/restore-backup-form.tsx',
  ])('%s is built on the form kit above', (form) => {
    const names = importsFrom(form, kit);
    expect(names).toContain('Form');
    expect(names.some((name) => name === 'useSchemaForm' || name === 'useRulesForm')).toBe(true);
  });

  it('Create Backup (a button, not a form) shows its failure in the banner above', () => {
    expect(importsFrom('features/backups/components/create-backup.tsx', banner)).toContain('FailureBanner');
  });
});
