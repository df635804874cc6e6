// Small string helpers written as loops, where the obvious regular expression (`/\/+$/`, `/^-+|-+$/`)
// would backtrack quadratically on a long run of the character followed by something else.

/** `value` without any run of `char` at its end. */
export function trimEndChar(value: string, char: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === char) end -= 1;
  return value.slice(0, end);
}

/** `value` without any run of `char` at either end. */
export function trimChar(value: string, char: string): string {
  let start = 0;
  while (start < value.length && value[start] === char) start += 1;
  return trimEndChar(value.slice(start), char);
}

/**
 * The blocks of `text` that start with `begin` and end with the next `end`, markers included, in
 * order (for PEM: `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----`). One pass.
 */
export function delimitedBlocks(text: string, begin: string, end: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(begin, from);
    if (start === -1) return blocks;
    const close = text.indexOf(end, start + begin.length);
    if (close === -1) return blocks;
    blocks.push(text.slice(start, close + end.length));
    from = close + end.length;
  }
}
