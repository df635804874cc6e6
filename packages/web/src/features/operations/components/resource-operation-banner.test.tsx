import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { operationFixture } from '../../../../test/operation-fixtures.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { ResourceOperationBanner } from './resource-operation-banner.tsx';

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
    <MemoryRouter>
      <ResourceOperationBanner operations={operations} />
    </MemoryRouter>,
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
