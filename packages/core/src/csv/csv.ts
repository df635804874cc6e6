// CSV exports (spec 1 §9: the Members and Roles CSV columns). RFC 4180 quoting, CRLF line ends.

/**
 * Cells a spreadsheet would run as a formula start with one of these; such cells get a leading quote
 * (OWASP "CSV injection"), since names in an export are typed by other members.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One header row, then the rows, each cell quoted when needed. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
