import { createAppSchema, handleMessages, requiredMessage } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Resolver, ResolverResult } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { Form, SubmitRow, useSchemaForm } from './form.tsx';
import { TextField } from './text-field.tsx';

interface HarnessProps {
  onSubmit: (handle: string) => Promise<unknown>;
  denial?: string | null;
  onCancel?: () => void;
}

function Harness({ onSubmit, denial = null, onCancel }: HarnessProps) {
  const form = useSchemaForm(createAppSchema, {
    defaultValues: { handle: '' },
    blocked: denial !== null,
    onSubmit: ({ handle }) => onSubmit(handle),
    successMessage: ({ handle }) => `Created ${handle}`,
  });
  return (
    <Form form={form} aria-label="New App" title="New App">
      <TextField label="Handle" error={form.formState.errors.handle?.message} {...form.register('handle')} />
      <SubmitRow denial={denial} onCancel={onCancel}>
        Create App
      </SubmitRow>
    </Form>
  );
}

const handle = () => screen.getByRole('textbox', { name: 'Handle' });
const submit = () => screen.getByRole('button', { name: 'Create App' });

describe('form helper (useSchemaForm, Form, SubmitRow)', () => {
  it("shows the core schema's messages beside the field, focuses it and sends nothing", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<Harness onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.click(submit());
    // The schema's resolver answers asynchronously: the message comes a tick after the click.
    expect(await screen.findByText(requiredMessage('Handle'))).toBeInTheDocument();
    expect(handle()).toHaveAttribute('aria-invalid', 'true');
    expect(handle()).toHaveFocus();
    await user.type(handle(), 'Bad Handle');
    await user.click(submit());
    expect(await screen.findByText(handleMessages.pattern)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the parsed values, is busy meanwhile, then shows the success message', async () => {
    let finish: () => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Harness onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.type(handle(), '  web  ');
    await user.click(submit());
    // The schema trims: the handler gets what the server would accept.
    expect(onSubmit).toHaveBeenCalledWith('web');
    expect(submit()).toHaveAttribute('aria-busy', 'true');
    expect(submit()).toBeDisabled();
    finish();
    expect(await screen.findByRole('status')).toHaveTextContent('Created web');
    expect(submit()).not.toBeDisabled();
  });

  it("shows the server's message in an error banner and clears it on the next submit", async () => {
    const onSubmit = vi
      .fn<(handle: string) => Promise<unknown>>()
      .mockRejectedValueOnce(new Error('Handle is already taken'))
      .mockResolvedValueOnce(undefined);
    render(<Harness onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.type(handle(), 'web');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent('Handle is already taken');
    await user.click(submit());
    expect(await screen.findByText('Created web')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a denied form keeps its button visible but sends nothing, not even on Enter', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<Harness onSubmit={onSubmit} denial="You may not create apps here" />);
    const user = userEvent.setup();
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    await user.type(handle(), 'web{Enter}');
    await user.click(submit());
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("takes a resolver where core's rules are functions, with their messages beside the fields", async () => {
    const onSubmit = vi.fn();
    const portRule: Resolver<{ port: string }> = async (
      values,
    ): Promise<ResolverResult<{ port: string }>> => {
      if (/^\d+$/.test(values.port)) return { values, errors: {} };
      return { values: {}, errors: { port: { type: 'rule', message: 'Port must be a number' } } };
    };
    function PortForm() {
      const form = useSchemaForm(portRule, { defaultValues: { port: 'http' }, onSubmit });
      return (
        <Form form={form}>
          <TextField label="Port" error={form.formState.errors.port?.message} {...form.register('port')} />
          <SubmitRow>Save</SubmitRow>
        </Form>
      );
    }
    render(<PortForm />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Port must be a number')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Port' }));
    await user.type(screen.getByRole('textbox', { name: 'Port' }), '8080');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ port: '8080' });
  });

  it('offers Cancel when asked', async () => {
    const onCancel = vi.fn();
    render(<Harness onSubmit={vi.fn(async () => undefined)} onCancel={onCancel} />);
    expect(screen.getByRole('form', { name: 'New App' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'New App' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
