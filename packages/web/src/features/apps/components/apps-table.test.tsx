import { act, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type AppRow, AppsTable } from './apps-table.tsx';

function appRow(overrides: Partial<AppRow> & { id: string; handle: string }): AppRow {
  return {
    envHandle: 'production',
    totalServices: 1,
    cost: 0,
    commitSha: '',
    status: 'provisioned',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const ROWS = [
  appRow({ id: '1', handle: 'oldest', createdAt: '2026-01-01T00:00:00.000Z', commitSha: 'abcdef0' }),
  appRow({ id: '2', handle: 'newest', createdAt: '2026-03-01T00:00:00.000Z' }),
  appRow({ id: '3', handle: 'middle', createdAt: '2026-02-01T00:00:00.000Z', status: 'deprovisioned' }),
];

function renderApps(url: string, serverMatches?: ReadonlySet<string>) {
  const router = createMemoryRouter(
    [
      {
        path: '/apps',
        element: <AppsTable rows={ROWS} isLoading={false} error={null} serverMatches={serverMatches} />,
      },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
}

const handles = () =>
  within(screen.getByRole('table', { name: 'Apps' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('AppsTable (spec 3 §2)', () => {
  it('lists the newest app first when no sort is chosen', () => {
    renderApps('/apps');
    expect(handles()).toEqual(['newest', 'middle', 'oldest']);
  });

  it.each([
    ['ABCDEF', ['oldest']],
    ['DEPROVISIONED', ['middle']],
    ['production', ['newest', 'middle', 'oldest']],
    ['2', ['newest']],
  ])('searches %s across commit sha, status, environment and id', async (search, expected) => {
    renderApps(`/apps?search=${encodeURIComponent(search)}`);
    await act(async () => undefined);
    expect(handles()).toEqual(expected);
  });

  it('adds the apps the server found by git ref, image or last operation', async () => {
    renderApps('/apps?search=release-7', new Set(['3']));
    await act(async () => undefined);
    expect(handles()).toEqual(['middle']);
  });
});
