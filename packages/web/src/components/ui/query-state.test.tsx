import { emptyStateMessages, permissionMessages, scopeDenialMessage } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { EnvironmentNamesProvider } from '../../lib/environment-names.tsx';
import { DenialBanner } from './denial-banner.tsx';
import { EmptyState } from './empty-state.tsx';
import { type QueryLike, QueryState } from './query-state.tsx';

function query<T>(state: Partial<QueryLike<T>>): QueryLike<T> {
  return { status: 'pending', data: undefined, error: null, refetch: vi.fn(async () => undefined), ...state };
}

function renderState(state: QueryLike<string[]>) {
  return render(
    <QueryState
      query={state}
      loadingLabel="Loading environments"
      isEmpty={(items) => items.length === 0}
      empty={<EmptyState title={emptyStateMessages.noEnvironments} />}
    >
      {(items) => (
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryState>,
  );
}

describe('QueryState', () => {
  it('shows a labelled skeleton while the query is pending', () => {
    renderState(query({}));
    expect(screen.getByRole('status', { name: 'Loading environments' })).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it("shows the server's message and retries the query on Retry", async () => {
    const failed = query<string[]>({ status: 'error', error: new Error('Database is down') });
    renderState(failed);
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Database is down');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalledOnce();
  });

  it('keeps the page header above the error, and only there', () => {
    const header = <h1>Environment</h1>;
    const { rerender } = render(
      <QueryState
        query={query<string>({ status: 'error', error: new Error('Gone') })}
        loadingLabel="Loading environment"
        errorHeader={header}
      >
        {(name) => <h1>{name}</h1>}
      </QueryState>,
    );
    expect(screen.getByRole('heading', { name: 'Environment' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Gone');

    rerender(
      <QueryState query={query<string>({})} loadingLabel="Loading environment" errorHeader={header}>
        {(name) => <h1>{name}</h1>}
      </QueryState>,
    );
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();

    rerender(
      <QueryState
        query={query<string>({ status: 'success', data: 'production' })}
        loadingLabel="Loading environment"
        errorHeader={header}
      >
        {(name) => <h1>{name}</h1>}
      </QueryState>,
    );
    expect(screen.getAllByRole('heading').map((heading) => heading.textContent)).toEqual(['production']);
  });

  it("shows the spec's empty-state text when the data has nothing", () => {
    renderState(query({ status: 'success', data: [] }));
    expect(screen.getByRole('heading', { name: 'No environments exist' })).toBeInTheDocument();
  });

  it('renders the children with the data once loaded', () => {
    renderState(query({ status: 'success', data: ['staging', 'production'] }));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'staging',
      'production',
    ]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('denials in plain words (issue 20)', () => {
  it('adds the plain words under a denial the server answered, naming the environment the shell knows', () => {
    const denied = query<string[]>({ status: 'error', error: new Error(scopeDenialMessage('read', '7')) });
    render(
      <EnvironmentNamesProvider names={(id) => (id === '7' ? 'staging' : undefined)}>
        <QueryState query={denied} loadingLabel="Loading configuration">
          {() => null}
        </QueryState>
      </EnvironmentNamesProvider>,
    );
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent(`Error: ${scopeDenialMessage('read', '7')}`);
    expect(banner).toHaveTextContent(
      'Needs Full Visibility on the staging environment. Ask an owner of the organization, or an admin of one of your roles, to grant it.',
    );
  });

  it('shows a denial banner with the rule, then its plain words; other texts stay as they are', () => {
    const { unmount } = render(<DenialBanner denial={permissionMessages.ownerOnly} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      `${permissionMessages.ownerOnly} Only owners of the organization can do this. Ask an Account Owner.`,
    );
    unmount();
    render(<DenialBanner denial="Credentials are shown once the database is provisioned." />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      /^Credentials are shown once the database is provisioned\.$/,
    );
  });
});

describe('a missing resource (issue 41)', () => {
  it('names a 404 in a heading with a link back to its list, and offers no Retry', () => {
    const missing = query<string>({ status: 'error', error: new ApiError(404, 'App not found', null, {}) });
    render(
      <MemoryRouter>
        <QueryState query={missing} loadingLabel="Loading app" notFoundBack={{ label: 'Apps', to: '/apps' }}>
          {(name) => <h1>{name}</h1>}
        </QueryState>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'App not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Apps' })).toHaveAttribute('href', '/apps');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps Retry for any other failure', () => {
    const down = query<string>({ status: 'error', error: new ApiError(503, 'Database is down', null, {}) });
    render(
      <MemoryRouter>
        <QueryState query={down} loadingLabel="Loading app" notFoundBack={{ label: 'Apps', to: '/apps' }}>
          {(name) => <h1>{name}</h1>}
        </QueryState>
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Database is down');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to Apps' })).not.toBeInTheDocument();
  });
});
