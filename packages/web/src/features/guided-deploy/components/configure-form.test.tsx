import { databasePlaceholder, dotenvMessages, MAX_DOTENV_LENGTH } from '@berth/core';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';
import { ConfigureForm, type ConfigureFormProps } from './configure-form.tsx';

const image = (id: string, type: string, version: string): DatabaseImage => ({
  id,
  type,
  version,
  description: `${type === 'redis' ? 'Redis' : 'PostgreSQL'} ${version}`,
  isDefault: false,
  visible: true,
  pitrSupported: false,
  eolAt: null,
});

const images = [image('2', 'postgresql', '14'), image('4', 'redis', '3.0')];

function renderForm(props: Partial<ConfigureFormProps> = {}) {
  const onSubmit = vi.fn();
  render(
    <ConfigureForm
      appHandle="shop"
      images={images}
      existingDatabaseHandles={[]}
      initialDatabases={[{ envVar: 'DATABASE_URL', imageId: '2' }]}
      initialVariables="KEEP=yes"
      denial={() => null}
      pending={false}
      onSubmit={onSubmit}
      {...props}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

const variables = () => screen.getByRole('textbox', { name: 'Variables' });
const dotenv = () => screen.getByRole('textbox', { name: 'Paste a .env file' });
/** The file input the "Load a .env file" button opens (hidden: the button is what is reached). */
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;

describe('Configure App (spec 3 "Configure App")', () => {
  it('adds a pasted .env file to the variables, replacing the same keys', async () => {
    const { user } = renderForm({ initialVariables: 'KEEP=yes\nAPI_KEY=old' });
    fireEvent.change(dotenv(), { target: { value: 'export API_KEY=new # rotated\nMULTI="a\\nb"' } });
    await user.click(screen.getByRole('button', { name: 'Add to Variables' }));
    expect(variables()).toHaveValue('KEEP=yes\nAPI_KEY=new\nMULTI="a\nb"');
    expect(dotenv()).toHaveValue('');
  });

  it("refuses a .env file with the spec's key messages and adds nothing", async () => {
    const { user } = renderForm();
    fireEvent.change(dotenv(), { target: { value: 'A=1\nA=2\n9LIVES=x' } });
    await user.click(screen.getByRole('button', { name: 'Add to Variables' }));
    expect(screen.getByText('A found multiple times, must be unique')).toBeInTheDocument();
    expect(screen.getByText('9LIVES does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeInTheDocument();
    expect(variables()).toHaveValue('KEEP=yes');
  });

  it('refuses a .env file over its size before reading it', async () => {
    const { user } = renderForm();
    const file = new File(['x'.repeat(MAX_DOTENV_LENGTH + 1)], '.env', { type: 'text/plain' });
    const text = vi.spyOn(file, 'text');
    await user.upload(fileInput(), file);
    expect(screen.getByText(dotenvMessages.tooLong)).toBeInTheDocument();
    expect(text).not.toHaveBeenCalled();
  });

  it('loads a .env file into the paste box', async () => {
    const { user } = renderForm();
    await user.upload(fileInput(), new File(['TOKEN=t0k3n\n'], '.env'));
    expect(await screen.findByDisplayValue('TOKEN=t0k3n')).toBe(dotenv());
  });

  it('sends the databases with their handles and engines, and the variables', async () => {
    const { user, onSubmit } = renderForm({ existingDatabaseHandles: ['shop-postgresql'] });
    await user.click(screen.getByRole('button', { name: 'Add Database' }));
    const second = screen.getByRole('group', { name: /^Database 2/ });
    await user.selectOptions(second.querySelector('select') as HTMLSelectElement, 'Redis 3.0');
    await user.click(screen.getByRole('button', { name: 'Save & Deploy' }));
    expect(onSubmit).toHaveBeenCalledWith({
      databases: [
        { envVar: 'DATABASE_URL', imageId: '2', type: 'postgresql', handle: 'shop-postgresql-2' },
        { envVar: 'DATABASE_2_URL', imageId: '4', type: 'redis', handle: 'shop-redis' },
      ],
      variables: [{ key: 'KEEP', value: 'yes' }],
    });
  });

  it('blocks the deploy on a database without an image, a repeated or bad variable', async () => {
    const { user, onSubmit } = renderForm();
    const save = screen.getByRole('button', { name: 'Save & Deploy' });
    await user.click(screen.getByRole('button', { name: 'Add Database' }));
    expect(screen.getByText('Must pick a database or delete the selector from the menu')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Delete database 2' }));
    expect(save).toBeEnabled();
    fireEvent.change(variables(), { target: { value: 'KEEP=yes\nDATABASE_URL=elsewhere' } });
    expect(screen.getByText('DATABASE_URL found multiple times, must be unique')).toBeInTheDocument();
    expect(save).toBeDisabled();
    fireEvent.change(variables(), { target: { value: 'bad key=1' } });
    expect(screen.getByText('bad key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeInTheDocument();
    const databaseVariable = screen.getByRole('textbox', { name: 'Environment Variable' });
    fireEvent.change(variables(), { target: { value: 'KEEP=yes' } });
    await user.clear(databaseVariable);
    await user.type(databaseVariable, '1DB');
    expect(screen.getByText('1DB does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeInTheDocument();
    await user.click(save);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps the deploy button with the reason when the caller may not deploy', async () => {
    const denial = 'You do not have "deploy" permissions for this environment (id:3)';
    const { user, onSubmit } = renderForm({ denial: () => denial });
    const save = screen.getByRole('button', { name: 'Save & Deploy' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    await user.click(save);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks for more when the draft waits for databases: its own, or placeholders in the variables', async () => {
    const sensitive = 'You do not have "sensitive" permissions for this environment (id:3)';
    const { user, onSubmit } = renderForm({ denial: (waits) => (waits ? sensitive : null) });
    // A denied button is another element than an allowed one: it is looked up each time.
    const save = () => screen.getByRole('button', { name: 'Save & Deploy' });
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    await user.click(save());
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Delete database 1' }));
    expect(save()).not.toHaveAttribute('aria-disabled');
    fireEvent.change(variables(), {
      target: { value: `KEEP=yes\nREDIS_URL=${databasePlaceholder('shop-redis')}` },
    });
    expect(save()).toHaveAttribute('aria-disabled', 'true');
  });

  it('reaches "Load a .env file" by keyboard as a button that opens the file chooser', async () => {
    const { user } = renderForm();
    const open = vi.spyOn(fileInput(), 'click');
    await user.click(dotenv());
    // The empty paste box leaves "Add to Variables" disabled: the next stop is the load button.
    await user.tab();
    const load = screen.getByRole('button', { name: 'Load a .env file' });
    expect(load).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(open).toHaveBeenCalledTimes(1);
    // The input itself is no tab stop of its own.
    expect(fileInput()).toHaveAttribute('hidden');
  });
});
