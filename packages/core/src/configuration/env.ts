// spec 2 §5 and spec 3 §5: environment variables, edited as key=value text with quoted multiline values.

// The same language as the spec's /[a-zA-Z_]+[a-zA-Z0-9_]*/, written so it cannot backtrack.
export const ENV_KEY_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export const envMessages = {
  duplicate: (key: string) => `${key} found multiple times, must be unique`,
  badKey: (key: string) => `${key} does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/`,
  // The key/value editor's own (issue 41): a contract "" removes a variable, so a row needs a value.
  missingKey: 'Each variable needs a key',
  missingValue: (key: string) => `${key} needs a value: remove the row to remove the variable`,
  missingReplacement: (key: string) => `Type the new value of ${key}, or keep its current value`,
} as const;

/** A row of the key/value editor: a saved sensitive value is not in the console, only replaced. */
export interface EnvRowInput {
  key: string;
  value: string;
  /** A saved sensitive variable whose value is neither shown nor sent unless replaced. */
  locked: boolean;
  replacing: boolean;
}

/**
 * Problems of the key/value editor's rows, in order: the spec's key rules (spec 2 §5) over the rows that
 * hold anything, then each row without a key or a value. A blank row is ignored.
 */
export function envRowProblems(rows: readonly EnvRowInput[]): string[] {
  const filled = rows.filter((row) => row.locked || row.key !== '' || row.value !== '');
  const problems: string[] = [];
  if (filled.some((row) => row.key === '')) problems.push(envMessages.missingKey);
  problems.push(...envKeyProblems(filled.filter((row) => row.key !== '').map((row) => row.key)));
  for (const row of filled) {
    if (row.key === '') continue;
    if (row.locked && row.replacing && row.value === '')
      problems.push(envMessages.missingReplacement(row.key));
    else if (!row.locked && row.value === '') problems.push(envMessages.missingValue(row.key));
  }
  return problems;
}

/** Problems with a set of keys, in order: each bad key once, each duplicate once. */
export function envKeyProblems(keys: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const key of keys) {
    if (!ENV_KEY_PATTERN.test(key) && !reported.has(`bad:${key}`)) {
      problems.push(envMessages.badKey(key));
      reported.add(`bad:${key}`);
    }
    if (seen.has(key) && !reported.has(`dup:${key}`)) {
      problems.push(envMessages.duplicate(key));
      reported.add(`dup:${key}`);
    }
    seen.add(key);
  }
  return problems;
}

export interface ParsedEnv {
  entries: { key: string; value: string }[];
  problems: string[];
}

/**
 * Parses `KEY=value` lines. A value starting with a double quote runs to the closing quote and may
 * span lines; \" and \\ escape inside it. Blank lines and lines starting with # are skipped.
 */
export function parseEnvText(text: string): ParsedEnv {
  const entries: { key: string; value: string }[] = [];
  const problems: string[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals === -1) {
      problems.push(`Line ${index + 1} must look like KEY=value`);
      continue;
    }
    const key = line.slice(0, equals).trim();
    let value = line.slice(equals + 1);
    if (value.startsWith('"')) {
      // Scanned line by line: a backslash at a line's end escapes only its line break, so each line's
      // scan starts afresh, and a long unclosed value costs one pass (no growing string read again).
      const parts = [value.slice(1)];
      let closed = closingQuote(parts[0] ?? '');
      while (closed === -1 && index + 1 < lines.length) {
        index += 1;
        parts.push(lines[index] ?? '');
        closed = closingQuote(parts[parts.length - 1] ?? '');
      }
      if (closed === -1) {
        problems.push(`${key} has an unterminated quoted value`);
        continue;
      }
      parts[parts.length - 1] = (parts[parts.length - 1] ?? '').slice(0, closed);
      value = parts.join('\n').replace(/\\(["\\])/g, '$1');
    }
    entries.push({ key, value });
  }
  problems.unshift(...envKeyProblems(entries.map((entry) => entry.key)));
  return { entries, problems };
}

/** The first unescaped `"` in a line, or -1. */
function closingQuote(line: string): number {
  for (let i = 0; i < line.length; i += 1) {
    if (line[i] === '\\') i += 1;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/** Renders variables back to editable text, quoting values that need it. */
export function formatEnvText(env: Record<string, string | null>): string {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key, value]) =>
      /[\n"\\]|^\s|\s$/.test(value) ? `${key}="${value.replace(/(["\\])/g, '\\$1')}"` : `${key}=${value}`,
    )
    .join('\n');
}

/**
 * What a configure operation must send to turn `current` into `entries` (contract §4.3 configuration):
 * new or changed keys with their value, removed keys as "".
 */
export function envChanges(
  current: Readonly<Record<string, string | null>>,
  entries: readonly { key: string; value: string }[],
): Record<string, string> {
  const changes: Record<string, string> = {};
  const next = new Map(entries.map((entry) => [entry.key, entry.value]));
  for (const [key, value] of next) if (current[key] !== value) changes[key] = value;
  for (const [key, value] of Object.entries(current)) {
    if (value !== null && !next.has(key)) changes[key] = '';
  }
  return changes;
}
