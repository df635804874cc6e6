import type { SearchResultResource } from '@berth/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { HOST } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { writePersisted } from '../../../lib/persisted-state.ts';
import { Component as SearchPage } from './index.tsx';

const COLLECTIONS = {
  app: 'apps',
  database: 'databases',
  deployment: 'deployments',
  stack: 'stacks',
} as const;

function result(type: keyof typeof COLLECTIONS, id: string, title: string): SearchResultResource {
  return {
    id,
    _type: 'search_result',
    resource_type: type,
    title,
    description: 'production',
    _links: {
      self: { href: `${HOST}/api/${COLLECTIONS[type]}/${id}` },
      ...(type === 'deployment' ? { app: { href: `${HOST}/api/apps/12` } } : {}),
    },
  };
}

function answer(results: SearchResultResource[]) {
  return json(200, {
    _embedded: { search_results: results },
    _links: { self: { href: `${HOST}/api/search` } },
    current_page: 1,
    per_page: Math.max(results.length, 1),
    total_count: results.length,
  });
}

const linksIn = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('link')
    .map((link) => link.getAttribute('href'));

describe('/search?search= (spec 3 §2 Global search)', () => {
  it('lists the resources and the deployments found, each linking to its page', async () => {
    signIn();
    mockServer({
      'GET /api/search': () =>
        answer([result('app', '12', 'storefront'), result('deployment', '40', 'main @ c0ffee1')]),
    });
    renderWithProviders(<SearchPage />, '/search?search=store');
    expect(await screen.findByRole('list', { name: 'Resources found' })).toBeInTheDocument();
    expect(linksIn('Resources found')).toEqual(['/apps/12']);
    expect(linksIn('Deployments found')).toEqual(['/deployments/40']);
    expect(screen.getByRole('searchbox', { name: 'Search resources' })).toHaveValue('store');
    // Said to assistive technology too, naming the text answered.
    expect(screen.getByRole('status')).toHaveTextContent('2 results for “store”');
  });

  it('says so, in the spec’s words, when nothing is found', async () => {
    signIn();
    mockServer({ 'GET /api/search': () => answer([]) });
    renderWithProviders(<SearchPage />, '/search?search=nothing');
    expect(await screen.findByText('No results found for this search query.')).toBeInTheDocument();
    expect(screen.getByText('No deployments found')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('0 results for “nothing”');
  });

  it('shows no result of an older text while a newer one settles or its answer is on its way', async () => {
    const user = userEvent.setup();
    signIn();
    let releaseNewer: () => void = () => {};
    const server = mockServer({
      'GET /api/search': (call) =>
        new URL(call.path, HOST).searchParams.get('q') === 'store'
          ? new Promise((resolve) => {
              releaseNewer = () => resolve(answer([result('app', '12', 'storefront')]));
            })
          : answer([result('app', '99', 'older-answer')]),
    });
    renderWithProviders(<SearchPage />, '/search?search=sto');
    expect(await screen.findByRole('link', { name: /older-answer/ })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 result for “sto”');
    await user.type(screen.getByRole('searchbox', { name: 'Search resources' }), 're');
    // While the typing settles, "sto"'s results do not stand for "store"…
    expect(screen.queryByRole('link', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    // …nor once "store" is asked and its answer is on its way.
    await waitFor(() =>
      expect(server.callsTo('GET', '/api/search').map((call) => call.path)).toContain('/api/search?q=store'),
    );
    expect(screen.queryByRole('link', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    await act(async () => releaseNewer());
    expect(await screen.findByRole('link', { name: /storefront/ })).toHaveAttribute('href', '/apps/12');
    expect(screen.queryByRole('link', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 result for “store”');
  });

  it('puts what is typed in the address after a pause, and searches for it', async () => {
    const user = userEvent.setup();
    signIn();
    const server = mockServer({
      'GET /api/search': () => answer([result('stack', '3', 'shared-us-west-1')]),
    });
    const { router } = renderWithProviders(<SearchPage />, '/search');
    await user.type(screen.getByRole('searchbox', { name: 'Search resources' }), 'shared');
    expect(await screen.findByRole('link', { name: /shared-us-west-1/ })).toHaveAttribute(
      'href',
      '/stacks/3',
    );
    expect(router.state.location.search).toBe('?search=shared');
    expect(server.callsTo('GET', '/api/search').map((call) => call.path)).toEqual(['/api/search?q=shared']);
  });

  it('shows Recently Viewed and Most Visited, 5 each, named by the server, for an empty search', async () => {
    signIn();
    const stats: Record<string, { count: number; lastAccessed: string }> = {};
    for (let i = 1; i <= 7; i += 1) {
      // app-1 was visited first and most often; app-7 last and once.
      stats[`app-${i}`] = { count: 10 - i, lastAccessed: `2026-11-0${i}T00:00:00.000Z` };
    }
    writePersisted('resourceStats', stats);
    const server = mockServer({
      // app-6 is gone (or no longer readable): the server leaves it out.
      'GET /api/search': (call) => {
        const keys = (new URL(call.path, HOST).searchParams.get('resources') ?? '').split(',');
        return answer(
          keys
            .filter((key) => key !== 'app-6')
            .map((key) => result('app', key.slice(4), `app number ${key.slice(4)}`)),
        );
      },
    });
    renderWithProviders(<SearchPage />, '/search');
    await screen.findByRole('list', { name: 'Recently Viewed' });
    expect(linksIn('Recently Viewed')).toEqual(['/apps/7', '/apps/5', '/apps/4', '/apps/3', '/apps/2']);
    expect(linksIn('Most Visited')).toEqual(['/apps/1', '/apps/2', '/apps/3', '/apps/4', '/apps/5']);
    // One request names them all.
    expect(server.callsTo('GET', '/api/search')).toHaveLength(1);
  });

  it('invites a first visit when nothing was visited yet, without asking the server', async () => {
    signIn();
    const server = mockServer({});
    renderWithProviders(<SearchPage />, '/search');
    expect(await screen.findByRole('heading', { name: 'Recently Viewed' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Most Visited' })).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });
});
