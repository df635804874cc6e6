/** The longest reason shown in a banner or a list; the whole line stays in the log. */
export const MAX_FAILURE_REASON_CHARS = 300;

/**
 * What marks an error line of an operation's log ("2026-01-01 12:00:00 +0000 ERROR -- : message"): the
 * level right after the 19-character time stamp. Only there: an INFO line's message (build output, which
 * the app's author writes) may hold " ERROR " and must not pass for the reason.
 */
export const LOG_ERROR_MARK = ' +0000 ERROR -- : ';
export const LOG_LEVEL_AT = 19;

/**
 * The reason a failed operation gives (issue 41): its first ERROR line (the first thing that went wrong;
 * later ones are usually the worker's summary of it), without the line's time stamp and level, else its
 * note. Written once for the console's banner (from the log text) and the server's operation lists (from
 * the first error line). Plain string searches, no pattern: a log is as long as the operation made it.
 */
export function failureReason(logText: string, note = ''): string | null {
  for (const raw of logText.split('\n')) {
    if (!raw.startsWith(LOG_ERROR_MARK, LOG_LEVEL_AT)) continue;
    const message = raw.slice(LOG_LEVEL_AT + LOG_ERROR_MARK.length).trim();
    if (message) return clip(message);
  }
  return note.trim() ? clip(note.trim()) : null;
}

function clip(text: string): string {
  return text.length > MAX_FAILURE_REASON_CHARS ? `${text.slice(0, MAX_FAILURE_REASON_CHARS)}…` : text;
}
