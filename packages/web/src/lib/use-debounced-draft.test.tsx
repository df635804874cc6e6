import { act, renderHook } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedDraft } from './use-debounced-draft.ts';

describe('useDebouncedDraft (spec 3 §9 search boxes)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A value kept "elsewhere" (like the query string), written by the hook 300 ms after typing. */
  function setup(initial: string, options: { strict?: boolean } = {}) {
    const writes: string[] = [];
    const hook = renderHook(
      ({ value }) =>
        useDebouncedDraft(value, (draft) => {
          writes.push(draft);
        }),
      // The console renders in StrictMode in development: each render runs twice.
      { initialProps: { value: initial }, wrapper: options.strict ? StrictMode : undefined },
    );
    return { hook, writes };
  }

  it('writes the last text typed 300 ms after the typing stops', () => {
    const { hook, writes } = setup('');
    act(() => hook.result.current[1]('a'));
    act(() => vi.advanceTimersByTime(200));
    act(() => hook.result.current[1]('ab'));
    act(() => vi.advanceTimersByTime(299));
    expect(writes).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(writes).toEqual(['ab']);
  });

  it.each([
    ['', {}],
    [' in StrictMode', { strict: true }],
  ])(
    'shows a value changed from outside, and keeps a keystroke typed while its own write lands%s',
    (_, options) => {
      const { hook, writes } = setup('shop', options);
      hook.rerender({ value: 'blog' });
      expect(hook.result.current[0]).toBe('blog');

      act(() => hook.result.current[1]('succeeded'));
      act(() => vi.advanceTimersByTime(300));
      expect(writes).toEqual(['succeeded']);
      // The next keystroke comes before the written value is back.
      act(() => hook.result.current[1]('no-such-ref'));
      hook.rerender({ value: 'succeeded' });
      expect(hook.result.current[0]).toBe('no-such-ref');
      act(() => vi.advanceTimersByTime(300));
      expect(writes).toEqual(['succeeded', 'no-such-ref']);
      // Its own write is forgotten once it has landed: the same text from outside later is shown.
      hook.rerender({ value: 'no-such-ref' });
      hook.rerender({ value: '' });
      expect(hook.result.current[0]).toBe('');
      hook.rerender({ value: 'no-such-ref' });
      expect(hook.result.current[0]).toBe('no-such-ref');
    },
  );
});
