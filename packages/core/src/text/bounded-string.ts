import { z } from 'zod';
import { tooLongMessage } from './limits.ts';

// Apart from limits.ts, so a page that needs only the numbers (the login form) loads no zod.

/**
 * A string schema that refuses a value over `max` first and stops there (`abort`), so no later check,
 * pattern or refinement ever sees an over-long value. Chain `.trim()`, `.min()` and the rest after it.
 */
export function boundedString(
  max: number,
  messages: { required?: string; tooLong?: string; label?: string } = {},
) {
  const tooLong = messages.tooLong ?? tooLongMessage(messages.label ?? 'The value', max);
  return z
    .string(messages.required === undefined ? undefined : { error: messages.required })
    .max(max, { error: tooLong, abort: true });
}
