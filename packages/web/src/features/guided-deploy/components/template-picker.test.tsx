import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TemplatePicker } from './template-picker.tsx';

function Picker({ runtime }: { runtime: string }) {
  const [value, setValue] = useState('custom');
  return <TemplatePicker value={value} onChange={setValue} runtime={runtime} />;
}

describe('the starter template choice (spec 3 §9)', () => {
  it('says what a template deploys on a simulated stack, with nothing to make', async () => {
    render(<Picker runtime="sim" />);
    const user = userEvent.setup();
    expect(screen.queryByRole('region', { name: 'Django v4 Template' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Code' }), 'Django v4 Template');
    const template = screen.getByRole('region', { name: 'Django v4 Template' });
    expect(template).toHaveTextContent(
      'On this simulated stack, deploying it creates simulated PostgreSQL 14 (DATABASE_URL) databases, sets SECRET_KEY, and runs a simulated deploy of main: no code is fetched, built or run.',
    );
    expect(screen.queryByRole('button', { name: /Copy/ })).toBeNull();
  });

  it('gives the commands that make the code where pushed code is built', async () => {
    render(<Picker runtime="docker" />);
    await userEvent
      .setup()
      .selectOptions(screen.getByRole('combobox', { name: 'Code' }), 'Ruby on Rails v7 Template');
    const template = screen.getByRole('region', { name: 'Ruby on Rails v7 Template' });
    expect(template).toHaveTextContent('as containers on this stack');
    expect(template).toHaveTextContent('Redis takes its default version here');
    expect(template).toHaveTextContent("gem install rails -v '~> 7.1'");
    expect(screen.getByRole('button', { name: 'Copy the template’s commands' })).toBeInTheDocument();
  });
});
