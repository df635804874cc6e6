import { ScimError } from './scim-errors.ts';

// RFC 7644 §3.4.2.2 filters, the part identity providers send: comparisons (`eq`, `ne`, `co`, `sw`, `ew`),
// presence (`pr`), `and`, `or`, parentheses and value paths (`members[value eq "…"]`). The text is read
// once, left to right, by a hand-written scanner and a recursive-descent parser with bounded depth and
// size: no regular expression ever sees it. Anything else is 400 invalidFilter, never a 500.

export const MAX_FILTER_LENGTH = 1000;
const MAX_COMPARISONS = 20;
const MAX_DEPTH = 8;

export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew';
const COMPARE_OPERATORS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew']);
/** Valid in SCIM but not offered here (no stored attribute is ordered): refused as invalidFilter. */
const ORDER_OPERATORS = new Set<string>(['gt', 'ge', 'lt', 'le']);

export type FilterValue = string | boolean | number | null;

/** An attribute as written: an optional schema URN, the attribute, and a sub-attribute (`name.givenName`). */
export interface AttributePath {
  schema: string | null;
  /** Lower case: SCIM attribute names are case-insensitive. */
  name: string;
  sub: string | null;
}

export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'compare'; path: AttributePath; operator: CompareOperator; value: FilterValue }
  | { kind: 'present'; path: AttributePath }
  | { kind: 'valuePath'; path: AttributePath; filter: Filter };

type Token =
  | { type: 'word'; text: string; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: '(' | ')' | '[' | ']'; at: number };

export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');

function isWordCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 46 || // .
    code === 58 || // :
    code === 95 || // _
    code === 36 || // $
    code === 45 || // -
    code === 43 // + (in numbers such as 1e+3)
  );
}

/** The text as tokens, in one pass. */
function scan(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      at += 1;
    } else if (char === '(' || char === ')' || char === '[' || char === ']') {
      tokens.push({ type: char, at });
      at += 1;
    } else if (char === '"') {
      // To the closing quote, stepping over escaped characters; JSON reads the escapes.
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw invalidFilter(`The string starting at character ${at + 1} is not closed`);
      let value: unknown;
      try {
        value = JSON.parse(text.slice(at, end + 1));
      } catch {
        throw invalidFilter(`The string starting at character ${at + 1} is not valid`);
      }
      // An escaped NUL (\u0000) would reach PostgreSQL, whose text cannot hold it: refused here, not a 500.
      if ((value as string).includes('\u0000')) {
        throw invalidFilter(`The string starting at character ${at + 1} must not contain NUL characters`);
      }
      tokens.push({ type: 'string', value: value as string, at });
      at = end + 1;
    } else if (isWordCharacter(char.charCodeAt(0))) {
      let end = at;
      while (end < text.length && isWordCharacter(text.charCodeAt(end))) end += 1;
      tokens.push({ type: 'word', text: text.slice(at, end), at });
      at = end;
    } else {
      throw invalidFilter(`Unexpected character at ${at + 1}`);
    }
  }
  return tokens;
}

/** `urn:…:User:name.givenName` → schema, `name`, `givenname`; names are compared in lower case. */
export function parseAttributePath(text: string): AttributePath {
  let schema: string | null = null;
  let rest = text;
  if (text.toLowerCase().startsWith('urn:')) {
    const cut = text.lastIndexOf(':');
    schema = text.slice(0, cut);
    rest = text.slice(cut + 1);
  }
  const parts = rest.split('.');
  const [name, sub, extra] = parts;
  const valid = (part: string | undefined) =>
    part !== undefined && part.length > 0 && /^[A-Za-z][A-Za-z0-9_$-]*$/.test(part);
  if (!valid(name) || (sub !== undefined && !valid(sub)) || extra !== undefined) {
    throw invalidFilter(`"${text.slice(0, 100)}" is not an attribute`);
  }
  return { schema, name: (name as string).toLowerCase(), sub: sub === undefined ? null : sub.toLowerCase() };
}

function literal(token: Token): FilterValue {
  if (token.type === 'string') return token.value;
  if (token.type !== 'word') throw invalidFilter(`A value was expected at character ${token.at + 1}`);
  const word = token.text.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (word === 'null') return null;
  const number = Number(token.text);
  if (token.text !== '' && Number.isFinite(number)) return number;
  throw invalidFilter(`"${token.text.slice(0, 100)}" is not a value: strings are written in double quotes`);
}

/** Parses a filter; 400 invalidFilter for anything outside the supported grammar. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) {
    throw invalidFilter(`A filter is at most ${MAX_FILTER_LENGTH} characters`);
  }
  const tokens = scan(text);
  let position = 0;
  let comparisons = 0;

  const peek = () => tokens[position];
  const keyword = (token: Token | undefined, word: string) =>
    token?.type === 'word' && token.text.toLowerCase() === word;

  function expect(type: Token['type']) {
    const token = tokens[position];
    if (token?.type !== type) {
      throw invalidFilter(
        token ? `"${type}" was expected at character ${token.at + 1}` : `"${type}" was expected at the end`,
      );
    }
    position += 1;
  }

  function or(depth: number): Filter {
    let left = and(depth);
    while (keyword(peek(), 'or')) {
      position += 1;
      left = { kind: 'or', left, right: and(depth) };
    }
    return left;
  }

  function and(depth: number): Filter {
    let left = primary(depth);
    while (keyword(peek(), 'and')) {
      position += 1;
      left = { kind: 'and', left, right: primary(depth) };
    }
    return left;
  }

  function primary(depth: number): Filter {
    if (depth > MAX_DEPTH) throw invalidFilter('The filter is nested too deeply');
    const token = peek();
    if (!token) throw invalidFilter('The filter ends where an expression was expected');
    if (token.type === '(') {
      position += 1;
      const inner = or(depth + 1);
      expect(')');
      return inner;
    }
    if (keyword(token, 'not')) throw invalidFilter('"not" is not supported');
    if (token.type !== 'word') throw invalidFilter(`An attribute was expected at character ${token.at + 1}`);
    position += 1;
    const path = parseAttributePath(token.text);
    comparisons += 1;
    if (comparisons > MAX_COMPARISONS)
      throw invalidFilter(`A filter has at most ${MAX_COMPARISONS} comparisons`);
    const next = peek();
    if (next?.type === '[') {
      position += 1;
      const inner = or(depth + 1);
      expect(']');
      return { kind: 'valuePath', path, filter: inner };
    }
    if (next?.type !== 'word') {
      throw invalidFilter(`An operator was expected after "${token.text.slice(0, 100)}"`);
    }
    const operator = next.text.toLowerCase();
    position += 1;
    if (operator === 'pr') return { kind: 'present', path };
    if (ORDER_OPERATORS.has(operator)) throw invalidFilter(`The operator "${operator}" is not supported`);
    if (!COMPARE_OPERATORS.has(operator)) {
      throw invalidFilter(`"${next.text.slice(0, 100)}" is not an operator`);
    }
    const valueToken = peek();
    if (!valueToken) throw invalidFilter(`A value was expected after "${operator}"`);
    position += 1;
    return { kind: 'compare', path, operator: operator as CompareOperator, value: literal(valueToken) };
  }

  if (tokens.length === 0) throw invalidFilter('The filter is empty');
  const filter = or(0);
  const rest = peek();
  if (rest) throw invalidFilter(`Unexpected text at character ${rest.at + 1}`);
  return filter;
}
