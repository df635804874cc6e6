/** The longest reason shown in a banner or a list; the whole line stays in the log. */
export const MAX_FAILURE_REASON_CHARS = 300;

/** What marks an error line of an operation's log ("2026-01-01 12:00:00 +0000 ERROR -- : message"). */
export const LOG_ERROR_MARK = ' ERROR ';

/**
 * The reason a failed operation gives (issue 41): its first ERROR line (the first thing that went wrong;
 * later ones are usually the worker's summary of it), without the line's time stamp and level, else its
 * note. Written once for the console's banner (from the log text) and the server's operation lists (from
 * the first error line). Plain string searches, no pattern: a log is as long as the operation made it.
 */
export function failureReason(logText: string, note = ''): string | null {
  for (const raw of logText.split('\n')) {
    const at = raw.indexOf(LOG_ERROR_MARK);
    if (at === -1) continue;
    const rest = raw.slice(at + LOG_ERROR_MARK.length);
    // The message follows "-- : ".
    const message = (rest.startsWith('-- : ') ? rest.slice('-- : '.length) : rest).trim();
    if (message) return clip(message);
  }
  return note.trim() ? clip(note.trim()) : null;
}

function clip(text: string): string {
  return text.length > MAX_FAILURE_REASON_CHARS ? `${text.slice(0, MAX_FAILURE_REASON_CHARS)}…` : text;
}
