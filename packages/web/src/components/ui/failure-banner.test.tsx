import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { FailureBanner } from './failure-banner.tsx';
import { Form, resolverOf, SubmitRow, useRulesForm } from './form.tsx';
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

const LIMIT =
  'Your plan (starter) allows 2 environments. Change your plan on the Plans page to lift the limit: growth allows 10.';

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
