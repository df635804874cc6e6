import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockServer } from '../../../../test/fetch-mock.ts';
import { HOST, tokenHal } from '../../../../test/fixtures.ts';
import { operationFixture, operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';
import { failingLine, ResourceOperationBanner } from './resource-operation-banner.tsx';

function op(type: string, status: string, minute: number): Operation {
  const at = `2025-01-15T10:0${minute}:00.000Z`;
  return operationFixture({
    id: `${type}-${minute}`,
    type,
    status,
    resourceId: '7',
    resourceHandle: 'web',
    environmentId: '10',
    userName: 'Ada',
    createdAt: at,
    updatedAt: at,
  });
}

const renderBanner = (operations: Operation[]) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ResourceOperationBanner operations={operations} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('ResourceOperationBanner (spec 2 §4)', () => {
  it('shows a failed deploy as an error linking to the operation', () => {
    const { container } = renderBanner([op('deploy', 'succeeded', 1), op('deploy', 'failed', 2)]);
    expect(screen.getByText('deploy FAILED')).toBeInTheDocument();
    expect(container.querySelector('.banner-error')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'View operation' })).toHaveAttribute(
      'href',
      '/operations/deploy-2',
    );
  });

  it('shows running and queued operations as progress', () => {
    const { container } = renderBanner([op('scale', 'running', 1)]);
    expect(screen.getByText('scale RUNNING')).toBeInTheDocument();
    expect(container.querySelector('.banner-info')).not.toBeNull();
  });

  it('shows a succeeded deprovision as success, and hides a succeeded deploy', () => {
    const { container, unmount } = renderBanner([op('deprovision', 'succeeded', 1)]);
    expect(container.querySelector('.banner-success')).not.toBeNull();
    unmount();
    const second = renderBanner([op('deploy', 'succeeded', 1)]);
    expect(second.container.querySelector('.banner')).toBeNull();
  });
});

describe('a failure banner (issue 20)', () => {
  it('finds the line that says why: the last ERROR line, else the last line', () => {
    expect(failingLine('Building\nERROR: step 2 failed\nCleaning up\nERROR: exit 3\n')).toBe('ERROR: exit 3');
    expect(failingLine('Building\nTimed out\n\n')).toBe('Timed out');
    expect(failingLine('')).toBeNull();
  });

  it('quotes it under the failed operation', async () => {
    sessionStore.signIn(fromTokenResource(tokenHal()));
    const url = `${HOST}/api/operation_logs/9?expires=1&signature=x`;
    mockServer({
      'GET /api/operations/9/logs': () => new Response(url),
      [`GET ${url.replace(HOST, '')}`]: () =>
        new Response('Pulling\nERROR: simfail-v1 does not build: missing Dockerfile\nStopping\n'),
    });
    const failed = fromOperationResource(
      operationResourceFixture({ id: '9', type: 'deploy', status: 'failed' }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ResourceOperationBanner operations={[failed]} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('ERROR: simfail-v1 does not build: missing Dockerfile'),
    ).toBeInTheDocument();
  });
});
