import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppDeploymentsTable, type AppDeploymentsTableProps } from './app-deployments-table.tsx';

function renderTable(props: AppDeploymentsTableProps) {
  const router = createMemoryRouter([{ path: '/', element: <AppDeploymentsTable {...props} /> }]);
  render(<RouterProvider router={router} />);
}

describe('AppDeploymentsTable states', () => {
  it('shows a spinner, not the empty text, while loading', () => {
    renderTable({ deployments: [], isLoading: true });
    expect(screen.getByRole('status', { name: 'Loading deployments' })).toBeInTheDocument();
    expect(screen.queryByText('No deployments found')).not.toBeInTheDocument();
  });

  it('shows "Error: {message}", not the empty text, when the load failed', () => {
    renderTable({ deployments: [], isLoading: false, error: new Error('Service unavailable') });
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Service unavailable');
    expect(screen.queryByText('No deployments found')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the empty text once loaded with no deployments', () => {
    renderTable({ deployments: [] });
    expect(screen.getByText('No deployments found')).toBeInTheDocument();
  });
});
