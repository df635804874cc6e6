import { emptyStateMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
