import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { envKeyProblems, type ParsedEnv } from './env.ts';

// Issue 38, guided deploy: a `.env` file pasted (or loaded) into the configure step. No dotenv library is
// in the project (and dotenv's parser needs Node's modules in the browser), so this small parser reads
// the common dialect: `export ` prefixes, `#` comments, unquoted values with inline comments, and single,
// double and backtick quotes, which may span lines. It reads the text once, front to back.

/** The largest `.env` text read: far above any real file, so the parse's work stays bounded. */
export const MAX_DOTENV_LENGTH = 256 * 1024;

export const dotenvMessages = {
  tooLong: tooLongMessage('A .env file', MAX_DOTENV_LENGTH),
  notAssignment: (line: number) => `Line ${line} must look like KEY=value`,
  unterminated: (key: string) => `${key} has an unterminated quoted value`,
  valueTooLong: (key: string) => `${key}: ${tooLongMessage('A variable value', MAX_LENGTH.envValue)}`,
} as const;

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

const isBlank = (char: string | undefined) => char === ' ' || char === '\t';

/**
 * The value of an unquoted assignment: up to a `#` that follows whitespace (an inline comment), trimmed.
 * `afterBlank`: whitespace came between the `=` and the text, so a `#` opening it is a comment too.
 */
function unquotedValue(text: string, afterBlank: boolean): string {
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '#' && (index === 0 ? afterBlank : isBlank(text[index - 1])))
      return text.slice(0, index).trim();
  }
  return text.trim();
}

/**
 * Parses `.env` text into variables, with the spec's key messages (spec 2 §5: unique keys matching
 * /[a-zA-Z_]+[a-zA-Z0-9_]*\/) and a message per line that is no assignment. Text over MAX_DOTENV_LENGTH
 * is refused whole.
 */
export function parseDotenv(text: string): ParsedEnv {
  if (text.length > MAX_DOTENV_LENGTH) return { entries: [], problems: [dotenvMessages.tooLong] };
  const source = text.replace(/\r\n?/g, '\n');
  const entries: { key: string; value: string }[] = [];
  const problems: string[] = [];
  let at = 0;
  let line = 1;
  while (at < source.length) {
    const newline = source.indexOf('\n', at);
    const lineEnd = newline === -1 ? source.length : newline;
    let cursor = at;
    while (isBlank(source[cursor])) cursor += 1;
    if (cursor >= lineEnd || source[cursor] === '#') {
      at = lineEnd + 1;
      line += 1;
      continue;
    }
    if (source.startsWith('export', cursor) && isBlank(source[cursor + 6])) {
      cursor += 6;
      while (isBlank(source[cursor])) cursor += 1;
    }
    // Looked for on this line only: a search to the end of the text for each line would make a text of
    // many lines without one cost quadratic time.
    let equals = -1;
    for (let index = cursor; index < lineEnd; index += 1) {
      if (source[index] === '=') {
        equals = index;
        break;
      }
    }
    if (equals === -1) {
      problems.push(dotenvMessages.notAssignment(line));
      at = lineEnd + 1;
      line += 1;
      continue;
    }
    const key = source.slice(cursor, equals).trim();
    let valueStart = equals + 1;
    while (valueStart < lineEnd && isBlank(source[valueStart])) valueStart += 1;
    const quote = source[valueStart];
    let value: string;
    let next: number;
    if (valueStart < lineEnd && (quote === '"' || quote === "'" || quote === '`')) {
      const parts: string[] = [];
      let index = valueStart + 1;
      let closed = false;
      let partStart = index;
      while (index < source.length) {
        const char = source[index];
        if (char === '\n') line += 1;
        if (quote === '"' && char === '\\' && index + 1 < source.length) {
          const escaped = source[index + 1] ?? '';
          parts.push(source.slice(partStart, index), DOUBLE_QUOTE_ESCAPES[escaped] ?? `\\${escaped}`);
          if (escaped === '\n') line += 1;
          index += 2;
          partStart = index;
          continue;
        }
        if (char === quote) {
          closed = true;
          break;
        }
        index += 1;
      }
      if (!closed) {
        // The quote runs to the end of the text: nothing after it can be read as its own line.
        problems.push(dotenvMessages.unterminated(key));
        break;
      }
      parts.push(source.slice(partStart, index));
      value = parts.join('');
      // What follows the closing quote on its line (a comment) is ignored.
      const after = source.indexOf('\n', index);
      next = after === -1 ? source.length : after;
    } else {
      value = unquotedValue(source.slice(valueStart, lineEnd), valueStart > equals + 1);
      next = lineEnd;
    }
    if (value.length > MAX_LENGTH.envValue) problems.push(dotenvMessages.valueTooLong(key));
    else entries.push({ key, value });
    at = next + 1;
    line += 1;
  }
  problems.unshift(...envKeyProblems(entries.map((entry) => entry.key)));
  return { entries, problems };
}
