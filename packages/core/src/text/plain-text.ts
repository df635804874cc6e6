import type { z } from 'zod';

// Names, refs and other one-line text a person reads back (issue 15): letters of every script are
// welcome, but not what changes how the text is shown without being seen. Control characters (C0, DEL,
// C1, so CR, LF and tab) and the line and paragraph separators could forge lines in a log or a CSV
// export; format characters (Unicode category Cf: the bidi controls such as U+202E RIGHT-TO-LEFT
// OVERRIDE, the zero-width space, the byte order mark, the soft hyphen) make a name look like another
// one. The zero-width joiner and non-joiner are part of how Persian, Indic scripts and emoji are written,
// so they stay allowed between two letters, marks or pictographs, and nowhere else. Each pattern is a
// single character set, so they are linear.

const CONTROL_OR_LINE_BREAK = /[\p{Cc}\u2028\u2029]/u;
const FORMAT_CHARACTER = /\p{Cf}/gu;
const JOINABLE = /^[\p{L}\p{M}\p{Extended_Pictographic}]$/u;
const ZERO_WIDTH_NON_JOINER = '\u200c';
const ZERO_WIDTH_JOINER = '\u200d';

/** The code point just before `index` and the one at `after`, as strings ('' at either end). */
function neighbours(value: string, index: number, after: number): [string, string] {
  const before = Array.from(value.slice(Math.max(0, index - 2), index)).pop() ?? '';
  const next = value.codePointAt(after);
  return [before, next === undefined ? '' : String.fromCodePoint(next)];
}

/** A format character that is not a joiner joining two visible characters. */
function hasHiddenFormatCharacter(value: string): boolean {
  for (const match of value.matchAll(FORMAT_CHARACTER)) {
    const character = match[0];
    const index = match.index ?? 0;
    if (character === ZERO_WIDTH_NON_JOINER || character === ZERO_WIDTH_JOINER) {
      const [before, next] = neighbours(value, index, index + character.length);
      if (JOINABLE.test(before) && JOINABLE.test(next)) continue;
    }
    return true;
  }
  return false;
}

export const plainTextMessages = {
  control: (label: string) => `${label} must not contain control characters or line breaks`,
  invisible: (label: string) =>
    `${label} must not contain invisible or text-direction characters (such as zero-width spaces or right-to-left overrides)`,
} as const;

/** The first rule `value` breaks, as its message, or null when it is plain one-line text. */
export function plainTextProblem(value: string, label: string): string | null {
  if (CONTROL_OR_LINE_BREAK.test(value)) return plainTextMessages.control(label);
  if (hasHiddenFormatCharacter(value)) return plainTextMessages.invisible(label);
  return null;
}

/**
 * Refuses control, line-break, invisible and text-direction characters. Chain it after the string's
 * `.max(n, { abort: true })`, so it only ever reads bounded text:
 * `z.string().max(120, { error, abort: true }).superRefine(plainText("Name"))`. Its issue stops the checks
 * after it, so a handle with a newline gets this message and not the pattern's too.
 */
export function plainText(label: string): (value: string, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    const message = plainTextProblem(value, label);
    if (message !== null) ctx.addIssue({ code: 'custom', message, continue: false });
  };
}
