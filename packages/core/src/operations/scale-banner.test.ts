import { describe, expect, it } from 'vitest';
import { type ScaleOperationLike, scaleBanner } from './scale-banner.ts';

function op(overrides: Partial<ScaleOperationLike> & { id: string }): ScaleOperationLike {
  return {
    type: 'scale',
    status: 'succeeded',
    containerCount: null,
    containerSize: null,
    instanceProfile: null,
    createdAt: `2026-01-0${overrides.id}T00:00:00.000Z`,
    ...overrides,
  };
}

describe('scaleBanner (spec 2 §4)', () => {
  it('is hidden without a scale operation', () => {
    expect(scaleBanner([])).toBeNull();
    expect(scaleBanner([op({ id: '1', type: 'restart' })])).toBeNull();
  });

  it('is hidden when the latest scale has an unknown status', () => {
    expect(scaleBanner([op({ id: '1', containerCount: 2 }), op({ id: '2', status: 'weird' })])).toBeNull();
  });

  it('reads Scale in Progress while the latest scale is queued or running', () => {
    for (const status of ['queued', 'running']) {
      const banner = scaleBanner([
        op({ id: '1', containerCount: 2 }),
        op({ id: '2', status, containerCount: 3 }),
      ]);
      expect(banner).toEqual({
        title: 'Scale in Progress',
        operationId: '2',
        status,
        summary: 'Container count from 2 to 3',
      });
    }
  });

  it('reads Last Scale with a from/to summary once the latest scale finished, in any list order', () => {
    const banner = scaleBanner([
      op({ id: '3', containerCount: 4, containerSize: 2048, instanceProfile: 'r5' }),
      op({ id: '1', containerCount: 1, containerSize: 512 }),
      op({ id: '2', containerCount: 2 }),
      op({ id: '4', type: 'restart' }),
    ]);
    expect(banner).toEqual({
      title: 'Last Scale',
      operationId: '3',
      status: 'succeeded',
      summary: 'Container count from 2 to 4; Container size from 512 MB to 2 GB; Container profile to r5',
    });
  });

  it('takes "from" from the service while the scale is pending, and leaves out what did not change', () => {
    const banner = scaleBanner(
      [op({ id: '1', status: 'queued', containerCount: 3, containerSize: 1024, instanceProfile: 'm5' })],
      {
        containerCount: 1,
        containerSize: 1024,
        instanceProfile: 'm5',
      },
    );
    expect(banner?.title).toBe('Scale in Progress');
    expect(banner?.summary).toBe('Container count from 1 to 3');
    // Once finished the service already holds the new size: the earlier scales give "from".
    const done = scaleBanner(
      [
        op({ id: '2', containerCount: 3, containerSize: 1024 }),
        op({ id: '1', containerCount: 1, containerSize: 1024 }),
      ],
      { containerCount: 3, containerSize: 1024, instanceProfile: 'm5' },
    );
    expect(done?.summary).toBe('Container count from 1 to 3');
  });

  it('reads "from" from what the scale recorded when it ran, before any other source', () => {
    // The only scale the service ever had: nothing earlier to compare with, yet it knows where it started.
    const banner = scaleBanner(
      [
        op({
          id: '1',
          containerCount: 3,
          containerSize: 2048,
          instanceProfile: 'r5',
          previousContainerCount: 1,
          previousContainerSize: 512,
          previousInstanceProfile: 'm5',
        }),
      ],
      { containerCount: 3, containerSize: 2048, instanceProfile: 'r5' },
    );
    expect(banner).toEqual({
      title: 'Last Scale',
      operationId: '1',
      status: 'succeeded',
      summary:
        'Container count from 1 to 3; Container size from 512 MB to 2 GB; Container profile from m5 to r5',
    });
    // The recorded value wins over an earlier scale (the service may have changed in between, e.g. a
    // scale from another client), and a dimension the scale did not change stays out.
    const recorded = scaleBanner([
      op({ id: '1', containerCount: 5 }),
      op({
        id: '2',
        status: 'failed',
        containerCount: 2,
        previousContainerCount: 4,
        previousContainerSize: 1024,
        previousInstanceProfile: 'm5',
      }),
    ]);
    expect(recorded?.summary).toBe('Container count from 4 to 2');
    // A scale that changes nothing it recorded reads as an empty summary rather than "from 2 to 2".
    const same = scaleBanner([op({ id: '1', containerCount: 2, previousContainerCount: 2 })]);
    expect(same?.summary).toBe('');
  });

  it('counts a failed scale as finished and ignores failed scales as the "from" value', () => {
    const banner = scaleBanner([
      op({ id: '1', containerCount: 1 }),
      op({ id: '2', status: 'failed', containerCount: 9 }),
      op({ id: '3', status: 'failed', containerCount: 5 }),
    ]);
    expect(banner?.title).toBe('Last Scale');
    expect(banner?.summary).toBe('Container count from 1 to 5');
  });
});
