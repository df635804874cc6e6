import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.tsx';

interface Row {
  id: string;
  handle: string;
  cost: number;
}

const columns: DataTableColumn<Row>[] = [
  { id: 'handle', header: 'Handle', cell: (row) => row.handle, sortValue: (row) => row.handle },
  { id: 'id', header: 'ID', cell: (row) => row.id },
  {
    id: 'cost',
    header: 'Cost',
    cell: (row) => row.cost.toFixed(2),
    sortValue: (row) => row.cost,
    align: 'right',
  },
];

function rowsOf(count: number): Row[] {
  return Array.from({ length: count }, (_, index) => ({
    id: String(index + 1),
    handle: `app-${String(index + 1).padStart(4, '0')}`,
    cost: (index * 7) % 13,
  }));
}

function renderTable(rows: Row[], url = '/list', extra: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/list',
        element: (
          <DataTable
            label="Apps"
            rows={rows}
            columns={columns}
            getRowId={(row) => row.id}
            searchText={(row) => [row.handle, row.id]}
            {...extra}
          />
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const table = () => screen.getByRole('table', { name: 'Apps' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);
const firstCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('DataTable (spec 3 §2 list tables)', () => {
  it('shows 25 rows a page by default and pages through the query string', async () => {
    const router = renderTable(rowsOf(60));
    expect(bodyRows()).toHaveLength(25);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=2');
    expect(firstCells()[0]).toBe('app-0026');
    await userEvent.selectOptions(screen.getByLabelText('Rows'), '50');
    expect(new URLSearchParams(router.state.location.search).get('rows')).toBe('50');
    expect(bodyRows()).toHaveLength(50);
  });

  it('reads page, rows, search and sort from the query string', () => {
    renderTable(rowsOf(30), '/list?rows=5&page=2&sort=-handle');
    expect(firstCells()).toEqual(['app-0025', 'app-0024', 'app-0023', 'app-0022', 'app-0021']);
    expect(screen.getByRole('columnheader', { name: /Handle/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('debounces the search by 300 ms, then filters case-insensitively and goes back to page 1', async () => {
    const router = renderTable(rowsOf(60), '/list?page=2');
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search apps' }), 'APP-004');
    expect(router.state.location.search).toBe('?page=2');
    await act(() => new Promise((resolve) => setTimeout(resolve, 350)));
    expect(router.state.location.search).toBe('?search=APP-004');
    expect(firstCells()).toEqual(Array.from({ length: 10 }, (_, i) => `app-004${i}`));
  });

  it('keeps what is typed while its own last write to the query string lands', async () => {
    const router = renderTable(rowsOf(30));
    const box = screen.getByRole('searchbox', { name: 'Search apps' });
    fireEvent.change(box, { target: { value: 'app-001' } });
    // The debounced write of "app-001" and the next keystroke land in the same render: the box keeps
    // the keystroke (it is not the query string changing from outside), and writes it 300 ms later.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 320));
      fireEvent.change(box, { target: { value: 'app-0025' } });
    });
    expect(router.state.location.search).toBe('?search=app-001');
    expect(box).toHaveValue('app-0025');
    await act(() => new Promise((resolve) => setTimeout(resolve, 350)));
    expect(router.state.location.search).toBe('?search=app-0025');
    expect(firstCells()).toEqual(['app-0025']);
  });

  it('follows the query string when it changes from outside, e.g. a link to the bare list', async () => {
    const router = renderTable(rowsOf(30), '/list?search=app-001');
    const box = screen.getByRole('searchbox', { name: 'Search apps' });
    expect(box).toHaveValue('app-001');
    await act(() => router.navigate('/list'));
    expect(box).toHaveValue('');
    await act(() => new Promise((resolve) => setTimeout(resolve, 350)));
    expect(router.state.location.search).toBe('');
    expect(bodyRows()).toHaveLength(25);
  });

  it('sorts by a column: ascending, descending, then unsorted', async () => {
    const router = renderTable(rowsOf(4));
    const cost = screen.getByRole('button', { name: /Cost/ });
    await userEvent.click(cost);
    expect(router.state.location.search).toBe('?sort=cost');
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      '0.00',
      '1.00',
      '7.00',
      '8.00',
    ]);
    await userEvent.click(cost);
    expect(router.state.location.search).toBe('?sort=-cost');
    await userEvent.click(cost);
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('columnheader', { name: 'ID' })).not.toHaveAttribute('aria-sort');
  });

  it('orders unsorted rows by defaultSort, and a column sort overrides it', async () => {
    const router = renderTable(rowsOf(4), '/list', { defaultSort: (a, b) => Number(b.id) - Number(a.id) });
    expect(firstCells()).toEqual(['app-0004', 'app-0003', 'app-0002', 'app-0001']);
    await userEvent.click(screen.getByRole('button', { name: /Handle/ }));
    expect(router.state.location.search).toBe('?sort=handle');
    expect(firstCells()).toEqual(['app-0001', 'app-0002', 'app-0003', 'app-0004']);
    await userEvent.click(screen.getByRole('button', { name: /Handle/ }));
    await userEvent.click(screen.getByRole('button', { name: /Handle/ }));
    expect(router.state.location.search).toBe('');
    expect(firstCells()).toEqual(['app-0004', 'app-0003', 'app-0002', 'app-0001']);
  });

  it('shows the spec texts for an empty list and a failed load', () => {
    renderTable([]);
    expect(screen.getByText('No resources found')).toBeInTheDocument();
  });

  it('shows "Error: {message}" when the list failed to load', () => {
    renderTable([], '/list', { error: new Error('boom') });
    expect(screen.getByRole('alert')).toHaveTextContent('Error: boom');
  });

  it('renders only the rows in view of a 5000-row page', () => {
    renderTable(rowsOf(5000), '/list?rows=5000');
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
    expect(table()).toHaveAttribute('aria-rowcount', '5001');
    expect(bodyRows().length).toBeLessThan(100);
  });

  it('names each value with its column for the phone cards (issue 41)', () => {
    const withButtons: DataTableColumn<Row>[] = [
      ...columns,
      { id: 'actions', header: 'Actions', headerHidden: true, cell: () => <button type="button">Go</button> },
    ];
    renderTable(rowsOf(3), '/list', { columns: withButtons });
    expect(table()).toHaveClass('table-cards');
    const labels = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.getAttribute('data-label'));
    // A column whose header is hidden (row buttons) has no label to show either.
    expect(labels(bodyRows()[0] as HTMLElement)).toEqual(['Handle', 'ID', 'Cost', null]);
  });

  it('server-paged: shows the page as given, without search, sorts or Rows, and asks for other pages', async () => {
    const pages: number[] = [];
    renderTable(rowsOf(30), '/list?page=7', {
      serverPaging: { page: 2, pageCount: 3, onPageChange: (next) => pages.push(next) },
    });
    expect(bodyRows()).toHaveLength(30);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Rows')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Handle/ })).not.toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(pager).getByText('Page 2 of 3')).toBeInTheDocument();
    await userEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(pages).toEqual([1, 3]);
  });

  it('server-paged: a single page needs no pager', () => {
    renderTable(rowsOf(3), '/list', { serverPaging: { page: 1, pageCount: 1, onPageChange: () => {} } });
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });
});
