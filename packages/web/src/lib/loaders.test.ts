import { describe, expect, it } from 'vitest';
import { combineLoaders } from './loaders.ts';

describe('combineLoaders (spec 1 §4)', () => {
  it('is loading first, then error with messages joined by commas, then success, then idle', () => {
    const loading = { status: 'loading', message: '' } as const;
    const success = { status: 'success', message: '' } as const;
    const idle = { status: 'idle', message: '' } as const;
    const error = (message: string) => ({ status: 'error', message }) as const;

    expect(combineLoaders([error('a'), loading, success]).status).toBe('loading');
    expect(combineLoaders([error('first'), success, error('second')])).toEqual({
      status: 'error',
      message: 'first, second',
    });
    expect(combineLoaders([idle, success]).status).toBe('success');
    expect(combineLoaders([idle, idle]).status).toBe('idle');
  });
});
